"""Prediction equals torch's actual outcome on every (function, new sizes) pair of the
corpus, for live sessions and for sessions read from TORCH_TRACE logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from predict_cases import CASES, Case, started

import symdebug
from symdebug.predict.predict import Predictor

TESTS = Path(__file__).resolve().parents[1]  # the helper scripts live in tests/


def test_corpus_is_large_and_covers_every_cause() -> None:
    assert sum(len(case.probes) for case in CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prediction_matches_torch_live(case: Case) -> None:
    with started(case) as (session, compiled):
        for args, kwargs in case.probes:
            predicted = session.predict(*args, **kwargs)
            if not [c for c in session.compiles if c.status == "ok"]:
                assert predicted.entry is None
                continue
            result = session.rerun(compiled, *args, **kwargs)
            assert result.prediction.entry == predicted.entry
            assert result.prediction_held, (args, kwargs, str(predicted), str(result))
            assert result.allclose, (args, kwargs)


@pytest.fixture(scope="module")
def traced(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[symdebug.Session, dict[str, list[dict]]]:
    out = tmp_path_factory.mktemp("predict_trace")
    env = dict(os.environ, TORCH_TRACE=str(out / "trace"))
    script = TESTS / "predict_cases.py"
    subprocess.run(
        [sys.executable, str(script), str(out / "outcomes.json")], check=True, env=env, timeout=900
    )
    session = symdebug.load_trace(out / "trace")
    assert isinstance(session, symdebug.Session)
    return session, json.loads((out / "outcomes.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prediction_matches_torch_from_a_trace(
    case: Case, traced: tuple[symdebug.Session, dict[str, list[dict]]]
) -> None:
    session, outcomes = traced
    for (args, kwargs), outcome in zip(case.probes, outcomes[case.name], strict=True):
        # The log holds every entry ever compiled; the lookup order at the time of the call
        # (not in the log) comes from the run that wrote it.
        predictor = Predictor(session.facts, case.fn.__name__, outcome["order"])
        predicted = predictor.predict(predictor.values(args, kwargs))
        expected = None if outcome["recompiled"] else outcome["entry"]
        assert predicted.entry == expected, (args, kwargs, str(predicted), outcome)


class _Convs(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.c2 = torch.nn.Conv2d(4, 4, 3, stride=2, padding=1)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        return self.c2(torch.relu(self.c1(img))).mean((2, 3))


def test_a_torch_module_setting_is_taken_as_built_and_torch_agrees() -> None:
    """``conv.groups`` and ``len(conv.stride)``, read only by torch.nn's own code, are what
    the model was built as (like its parameters' sizes): assumed, not a value to give."""
    torch._dynamo.reset()
    net = _Convs().eval()
    compiled = torch.compile(net, backend="eager")
    with symdebug.capture() as s, torch.no_grad():
        for size in (16, 24, 20):  # static, then dynamic H and W
            compiled(torch.randn(2, 3, size, size))
        from_log = symdebug.Session(s.facts).predict(img=(2, 3, 40, 40))
        assumed = " ".join(from_log.assumed)
        assert from_log.certain and from_log.entry is not None, str(from_log)
        assert "['c1'].groups == 1" in assumed and "len(L['self']._modules['c2'].stride)" in assumed
        prediction = s.predict(img=(2, 3, 40, 40))  # live: read from the module itself
        assert prediction.certain and prediction.entry == from_log.entry
        assert "['c1'].groups == 1" not in " ".join(prediction.assumed)
        before = len(s.compiles)
        compiled(torch.randn(2, 3, 40, 40))
        assert len(s.compiles) == before  # served, as predicted

"""Prediction equals torch's actual outcome on every (function, new call) pair of the
corpus (``predict_cases.py``), for live sessions and for sessions read from TORCH_TRACE logs.

Torch's outcome is read from torch alone (``predict_cases.observe``: its cache entries and
their compile ids, its lookups, the compiles it starts, its guard-failure reasons, the error
a failing compile raises); an error raised from symdebug's code is never taken as torch's.
For the logs, the calls are made by a subprocess that never imports symdebug.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import torch
from predict_cases import CASES, Case, Observed, Probe, Tensor, observe, warm

import symdebug
from symdebug.model.types import CAUSES
from symdebug.predict.predict import Prediction, Predictor

TESTS = Path(__file__).resolve().parents[1]  # the helper scripts live in tests/
#: Probes in the corpus (the README's count of (function, call) pairs predicted).
CORPUS_PROBES = 65
#: Causes no probe's recompile can have, and why.
UNREACHABLE = {
    "mark_dynamic_violated": "a violated mark_dynamic raises ConstraintViolationError: that "
    "compile leaves no entry whose check a later call could fail (the corpus's mark_dynamic "
    "case has that raise as a probe, its outcome torch's error)",
    "unknown": "no mechanism: what symdebug says when it cannot name one",
    # The settings that declare a dim static are torch 2.14's and 2.15's, and this corpus
    # runs on every supported torch: the conformance corpus covers them on the torch that
    # has them (tests/data/programs/static_sources_env.py; tests/unit/test_declared_fixes.py).
    "static_sources": "torch 2.15's setting (torch.compiler.config.static_sources)",
    "dynamic_shapes": "torch 2.14's torch.compile(dynamic_shapes=...) keyword",
}
#: Causes a session read from a log names otherwise than a live one, and what it names.
#: (Inductor's ``s77 <= 4096`` of the backward graph, compiled with the forward: the live
#: capture sees the graph it came from; from the log symdebug names no graph, and reads it
#: as the forward's.)
LOG_CAUSES = {"backward": "inductor"}
#: Torch's own words, in its recompile reason, for the causes it names.
TORCH_WORDS = {
    "dtype": "dtype mismatch",
    "requires_grad": "requires_grad mismatch",
    "device": "actual DispatchKeySet(Meta",
    "dispatch_keys": "Conjugate",
    "strides": "stride mismatch",
    "global_state": "GLOBAL_STATE changed: grad_mode",
    "duck_sizing": "duck sizing",
    "length": "len(xs) == 2",
    "identity": "n is None",
    "mark_dynamic_range": "2 <= x.size()[0] <= 8",
}


def given(probe: Probe) -> tuple[list[Any], dict[str, Any]]:
    """A probe's call as a prediction is given it: shapes stay, specs become tensors."""
    return [_given(a) for a in probe.args], {k: _given(v) for k, v in probe.kwargs.items()}


def _given(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.build()
    if isinstance(value, list):
        return [_given(v) for v in value]
    if isinstance(value, dict):
        return {k: _given(v) for k, v in value.items()}
    return value


def agrees(predicted: Prediction, observed: Observed) -> bool:
    """Certain, and torch's outcome: its serving entry, or a compile (one that raised too).

    A compile that raises is a miss that compiles again: the prediction says "recompile".
    """
    same = predicted.outcome == observed.outcome and predicted.order == observed.order
    if observed.outcome == "served":
        same = same and predicted.entry == observed.entry
    return same and predicted.certain


@contextlib.contextmanager
def started(case: Case) -> Iterator[tuple[symdebug.LiveSession, Any]]:
    """A capture of the case compiled and warmed up."""
    torch._dynamo.reset()
    with case.config(), symdebug.capture() as session:
        compiled = torch.compile(case.fn, **case.options)
        warm(case, compiled)
        yield session, compiled


def predict_live(session: symdebug.LiveSession, case: Case, probe: Probe) -> Prediction:
    args, kwargs = given(probe)
    with probe.grad_mode():
        return session.predict(*args, frame=case.fn.__name__, **kwargs)


def assert_cause(session: symdebug.Session, probe: Probe, observed: Observed, cause: str) -> None:
    """Torch compiled again, in its own words where it names the cause; the session's cause."""
    assert observed.outcome == "recompile", (probe, observed)
    causes = [r.cause for r in session.recompiles if r.compile_id in observed.started]
    assert causes == [cause], (probe, causes, observed.reasons)
    words = TORCH_WORDS.get(str(probe.cause))
    assert words is None or any(words in reason for reason in observed.reasons), observed


def assert_failure_recorded(session: symdebug.Session, observed: Observed) -> None:
    """Torch raised from the compile it started: the session has it failed, with its type."""
    if observed.error is None:
        return
    failed = [c for c in session.compiles if c.compile_id in observed.started]
    assert [c.fail_type for c in failed] == [observed.error["type"]], (failed, observed)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prediction_matches_torch_live(case: Case) -> None:
    """Each probe predicted, then called: torch's outcome, its failed compile and cause."""
    with started(case) as (session, compiled):
        for probe in case.probes:
            predicted = predict_live(session, case, probe)
            observed = observe(compiled, case.fn.__code__, probe, case.requires_grad)
            assert agrees(predicted, observed), (probe, str(predicted), observed)
            assert_failure_recorded(session, observed)
            if probe.cause is not None:
                assert_cause(session, probe, observed, probe.cause)


@dataclass
class Traced:
    """The corpus run by torch alone: the session read from its log, and torch's answers."""

    session: symdebug.Session
    #: Torch's Dynamo settings of the run (a log does not hold them).
    settings: dict[str, Any]
    outcomes: dict[str, list[Observed]]


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Traced:
    """The corpus run by torch alone (a subprocess), its TORCH_TRACE read by symdebug."""
    out = tmp_path_factory.mktemp("predict_trace")
    # A cached Inductor graph replays its guards without their frames: compile afresh.
    env = dict(os.environ, TORCH_TRACE=str(out / "trace"), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    script = TESTS / "predict_cases.py"
    subprocess.run(
        [sys.executable, str(script), str(out / "outcomes.json")], check=True, env=env, timeout=900
    )
    session = symdebug.load_trace(out / "trace")
    assert isinstance(session, symdebug.Session)
    run = json.loads((out / "outcomes.json").read_text())
    outcomes = {name: [Observed(**o) for o in rows] for name, rows in run["cases"].items()}
    return Traced(session, run["settings"], outcomes)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prediction_matches_torch_from_a_trace(case: Case, traced: Traced) -> None:
    """Each probe predicted from the log of torch's run: the outcome torch had in that run."""
    for probe, observed in zip(case.probes, traced.outcomes[case.name], strict=True):
        # The log holds every entry ever compiled; the lookup order at the time of the call
        # and the settings (not in the log) are torch's, read by the run that wrote it.
        predictor = Predictor(
            traced.session.facts, case.fn.__name__, observed.order, traced.settings
        )
        with probe.grad_mode():
            predicted = predictor.predict(predictor.values(*given(probe)))
        stated = [*predicted.assumed, *predicted.conditions]
        if probe.log_assumes is not None and not agrees(predicted, observed):
            # what a log cannot hold is taken as recorded (or left open), and said so
            assert any(probe.log_assumes in text for text in stated), (probe, str(predicted))
        else:
            assert agrees(predicted, observed), (probe, str(predicted), observed)
        assert_failure_recorded(traced.session, observed)


def test_corpus_is_large_and_covers_every_cause(traced: Traced) -> None:
    """Every cause class a recompile can have is the cause of some probe's recompile: torch
    compiled again (in its own words where its reason names the class) and the session read
    from its log names that cause (the live test checks the live session's)."""
    probes = [probe for case in CASES for probe in case.probes]
    assert len(probes) == CORPUS_PROBES
    assert set(UNREACHABLE) <= set(CAUSES)
    declared = {probe.cause for probe in probes if probe.cause is not None}
    assert declared == set(CAUSES) - set(UNREACHABLE), sorted(set(CAUSES) - declared)
    for case in CASES:
        for probe, observed in zip(case.probes, traced.outcomes[case.name], strict=True):
            if probe.cause is not None:
                cause = LOG_CAUSES.get(probe.cause, probe.cause)
                assert_cause(traced.session, probe, observed, cause)


def test_corpus_holds_compiles_that_raise(traced: Traced) -> None:
    """A probe whose compile raises: torch's error is its outcome, predicted as a recompile."""
    errors = [o.error for rows in traced.outcomes.values() for o in rows if o.error is not None]
    assert [e["type"] for e in errors] == ["ConstraintViolationError"], errors


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

"""Prediction from hand-built facts: what it cannot evaluate makes it uncertain, never wrong.

Covers the answer's certainty and conditions, module attributes given by name, expressions
bounded by Inductor, and the frame's state: skipped for good, recompile limit, failed
compiles (raised or suppressed).
"""

from __future__ import annotations

import numpy as np
import pytest

from symdebug.model.types import Compile, Facts, InputDim, ShapeCheck, Signature
from symdebug.queries.arguments import short_name, source_for
from symdebug.queries.frame_state import DEFAULT_RECOMPILE_LIMIT
from symdebug.queries.predict import EAGER, RECOMPILE, Prediction, Predictor

SIGNATURE = Signature(names=["self", "x"], positional=2)
LIMIT_REASON = (
    "Dynamo recompile limit exceeded\n  Explanation: Dynamo attempted to recompile the code "
    "object too many times, exceeding the recompile_limit cache size limit (currently set to 2)."
)


def entry(number: int, *checks: str, chunk: int | None = 2, **fields: object) -> Compile:
    compile_ = Compile(f"0/{number}", 0, number, name="forward", signature=SIGNATURE)
    compile_.inputs = [
        InputDim("L['x'].size()[0]", "s0", True),
        InputDim("L['x'].size()[1]", 16, False),
    ]
    if chunk is not None:
        compile_.inputs.append(InputDim("L['self'].chunk", chunk, False))
    compile_.shape_checks = [ShapeCheck(check) for check in checks]
    for name, value in fields.items():
        setattr(compile_, name, value)
    return compile_


def predictor(*compiles: Compile, **settings: object) -> Predictor:
    return Predictor(Facts(compiles=list(compiles)), "forward", None, settings or None)


def predict(predictor_: Predictor, rows: int, **named: object) -> Prediction:
    return predictor_.predict(predictor_.values([(rows, 16)], named))


def test_a_module_attribute_not_given_makes_a_hit_uncertain() -> None:
    prediction = predict(predictor(entry(0)), 4)
    assert prediction.entry == "0/0" and not prediction.certain
    assert prediction.unchecked == ["L['self'].chunk == 2"]
    assert prediction.conditions == ["L['self'].chunk != 2"]
    text = str(prediction)
    assert "served by 0/0 unless L['self'].chunk != 2" in text
    assert "**{'self.chunk': value}" in text


@pytest.mark.parametrize("name", ["self.chunk", "L['self'].chunk"])
def test_a_module_attribute_given_by_name_is_checked(name: str) -> None:
    p = predictor(entry(0))
    hit, miss = predict(p, 4, **{name: 2}), predict(p, 4, **{name: 3})
    assert hit.certain and hit.entry == "0/0"
    assert miss.certain and miss.recompiles
    assert miss.failures[0].check == "L['self'].chunk == 2"


def test_an_entry_that_fails_a_check_fails_whatever_it_could_not_check() -> None:
    p = predictor(entry(0, "L['x'].size()[0] <= 8"))
    prediction = predict(p, 16)
    assert prediction.certain and prediction.recompiles
    assert prediction.unchecked == []


def test_an_unknown_name_still_raises() -> None:
    p = predictor(entry(0))
    with pytest.raises(TypeError, match="unknown argument 'y'"):
        p.values([(4, 16)], {"y": 1})


def test_names_resolve_to_torch_sources() -> None:
    weight = "L['self']._modules['lin']._parameters['weight']"
    assert short_name(weight) == "self.lin.weight"
    assert short_name("L['self']._modules['h']._modules['0'].n") == "self.h.0.n"
    known = [f"{weight}.size()[0]"]
    assert source_for("self.lin.weight", known, ["self", "x"]) == weight
    assert source_for("self.h[0].n", ["L['self']._modules['h']._modules['0'].n"], []) == (
        "L['self']._modules['h']._modules['0'].n"
    )
    assert source_for("self.other", known, ["self", "x"]) == "L['self'].other"
    assert source_for("scale", known, ["self", "x"]) == "G['scale']"


def test_an_expression_bounded_by_inductor_is_evaluated() -> None:
    check = "L['x'].size()[1]*L['x'].size()[0] <= 4096"
    p = predictor(entry(0, check, chunk=None))
    small, large = predict(p, 16), predict(p, 1024)
    assert small.certain and small.entry == "0/0"
    assert large.certain and large.recompiles
    assert large.failures[0].check == check


def test_program_state_is_assumed_not_uncertain() -> None:
    checks = ("L['self'].config is L['self']._modules['a'].config", "len(G['f'].__defaults__) == 2")
    prediction = predict(predictor(entry(0, *checks, chunk=None)), 4)
    assert prediction.certain and prediction.entry == "0/0"
    assert prediction.assumed == list(checks)


def test_a_check_that_cannot_be_evaluated_is_uncertain() -> None:
    prediction = predict(predictor(entry(0, "unknown_fn(L['x'].size()[0]) == 1", chunk=None)), 4)
    assert not prediction.certain and prediction.entry == "0/0"
    assert prediction.unchecked[0].endswith("(cannot be evaluated)")


def test_a_bool_argument_is_uncertain_its_guard_is_not_kept() -> None:
    compile_ = Compile(
        "0/0", 0, 0, name="f", signature=Signature(names=["x", "flag"], positional=2)
    )
    p = Predictor(Facts(compiles=[compile_]), "f")
    prediction = p.predict(p.values([(4,), False], {}))
    assert not prediction.certain and prediction.entry == "0/0"
    assert prediction.conditions == ["the entry's guard on L['flag'] rejects False"]


def test_a_compile_that_traced_no_ops_skips_the_frame() -> None:
    skipped = entry(1, status="empty", chunk=None)
    prediction = predict(predictor(entry(0, chunk=None), skipped), 4)
    assert prediction.certain and prediction.runs_eager
    assert "0/1: it traced no ops" in str(prediction)


def test_a_compile_with_guards_and_no_graph_is_an_entry() -> None:
    cached = entry(0, status="empty", guard_count=5, chunk=None)
    prediction = predict(predictor(cached), 4)
    assert prediction.certain and prediction.entry == "0/0"


def test_the_recompile_limit_hit_runs_misses_eagerly_and_serves_hits() -> None:
    hit_limit = entry(2, status="failed", fail_type="Unsupported", fail_reason=LIMIT_REASON)
    p = predictor(
        entry(0, "L['x'].size()[0] <= 8"), entry(1, "9 <= L['x'].size()[0] <= 16"), hit_limit
    )
    miss, hit = predict(p, 32, **{"self.chunk": 2}), predict(p, 4, **{"self.chunk": 2})
    assert miss.certain and miss.runs_eager
    assert "recompile_limit (2) reached at 0/2" in str(miss)
    assert hit.certain and hit.entry == "0/0"


def test_a_known_recompile_limit_decides_before_it_is_hit() -> None:
    p = predictor(entry(0, "L['x'].size()[0] <= 8"), recompile_limit=1)
    prediction = predict(p, 32, **{"self.chunk": 2})
    assert prediction.certain and prediction.runs_eager
    assert "recompile_limit (1) reached" in str(prediction)


def test_an_unknown_recompile_limit_is_assumed_then_uncertain() -> None:
    few = predict(predictor(entry(0, "L['x'].size()[0] <= 8")), 32, **{"self.chunk": 2})
    assert few.certain and few.recompiles
    assert "torch's default (8)" in few.assumed[0]
    many = [entry(n, f"L['x'].size()[0] == {n + 100}") for n in range(DEFAULT_RECOMPILE_LIMIT)]
    prediction = predict(predictor(*many), 32, **{"self.chunk": 2})
    assert not prediction.certain and prediction.recompiles


def test_a_soft_failure_skips_the_frame_unless_fullgraph() -> None:
    failed = entry(1, status="failed", fail_type="Unsupported", fail_reason="graph break")
    prediction = predict(predictor(entry(0), failed), 4, **{"self.chunk": 2})
    assert prediction.runs_eager and not prediction.certain
    assert "fullgraph=True" in prediction.conditions[0]


@pytest.mark.parametrize(("suppress", "outcome"), [(True, "eager"), (False, "served")])
def test_a_hard_failure_depends_on_suppress_errors(suppress: bool, outcome: str) -> None:
    failed = entry(1, status="failed", fail_type="BackendCompilerFailed", fail_reason="no")
    known = predict(predictor(entry(0), failed, suppress_errors=suppress), 4, **{"self.chunk": 2})
    assert known.certain and known.outcome == outcome
    unknown = predict(predictor(entry(0), failed), 4, **{"self.chunk": 2})
    assert not unknown.certain and unknown.outcome == "served"
    assert "suppress_errors was True" in unknown.conditions[0]


def test_vectorised_answers_carry_certainty_and_eager_runs() -> None:
    p = predictor(entry(0, "L['x'].size()[0] <= 8"))
    rows = np.array([4, 32])
    columns = {k: np.full(2, v) for k, v in p.values([(4, 16)], {}).items()}
    columns["L['x'].size()[0]"] = rows
    served, certain = p.answers(columns)
    assert served.tolist() == [0, RECOMPILE] and certain.tolist() == [False, True]
    columns["L['self'].chunk"] = np.full(2, 2)
    assert p.answers(columns)[1].tolist() == [True, True]
    limited = predictor(entry(0, "L['x'].size()[0] <= 8"), recompile_limit=1)
    assert limited.answers(columns)[0].tolist() == [0, EAGER]
    assert limited.serving(columns).tolist() == [0, RECOMPILE]


def test_a_reset_keeps_only_the_newest_generation() -> None:
    old = Compile("0/0", 0, 0, name="first", signature=SIGNATURE)
    new = Compile("0/0@1", 0, 0, generation=1, name="second", signature=SIGNATURE)
    assert [m.compile_id for m in Predictor(Facts(compiles=[old, new]), "second").models] == [
        "0/0@1"
    ]

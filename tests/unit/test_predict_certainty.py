"""Prediction from hand-built facts: what it cannot evaluate makes it uncertain, never wrong.

Covers the answer's certainty and conditions, module attributes given by name, expressions
bounded by Inductor, and the frame's state: skipped for good, recompile limit, failed
compiles (raised or suppressed).
"""

from __future__ import annotations

import numpy as np
import pytest

from symdebug.model.types import Compile, Facts, InputDim, ShapeCheck, Signature
from symdebug.predict.arguments import short_name, source_for
from symdebug.predict.frame_state import DEFAULT_RECOMPILE_LIMIT
from symdebug.predict.predict import EAGER, RECOMPILE, Prediction, Predictor

SIGNATURE = Signature(names=["self", "x"], positional=2)
UNRECORDED_TENSOR = "L['x']'s type, dtype, device and grad (not recorded)"
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
    # A compile without ``tensor_checks`` (as before v9): a shape stands for a tensor like it.
    assert prediction.assumed == [*checks, UNRECORDED_TENSOR]


def test_a_check_that_cannot_be_evaluated_is_uncertain() -> None:
    prediction = predict(predictor(entry(0, "unknown_fn(L['x'].size()[0]) == 1", chunk=None)), 4)
    assert not prediction.certain and prediction.entry == "0/0"
    wanted = "(not evaluated: not a guard check (call of 'unknown_fn'))"
    assert prediction.unchecked[0].endswith(wanted)


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


def test_an_identity_check_reads_the_objects_a_call_passes() -> None:
    import numpy as np

    from symdebug.predict.value_checks import identity_check

    same, other = object(), object()
    check = identity_check("L['a'] is L['b']")
    negated = identity_check("L['a'] is not L['b']")
    assert check is not None and negated is not None and not check.program_state
    assert check.sources == ["object:L['a']", "object:L['b']"]
    assert check.evaluate_one is not None
    assert check.evaluate_one({"object:L['a']": same, "object:L['b']": same})
    assert not check.evaluate_one({"object:L['a']": same, "object:L['b']": other})
    columns = {
        "object:L['a']": np.array([same, same, other], dtype=object),
        "object:L['b']": np.array([same, other, other], dtype=object),
    }
    assert check.evaluate(columns).tolist() == [True, False, True]
    assert negated.evaluate(columns).tolist() == [False, True, False]
    module_state = identity_check("L['self'].config is L['self']._modules['a'].config")
    assert module_state is not None and module_state.program_state


def _valued(*checks: str) -> Predictor:
    signature = Signature(names=["x", "mask", "flag", "mode", "scale"], positional=5)
    compile_ = Compile("0/0", 0, 0, name="f", signature=signature)
    compile_.inputs = [InputDim("L['x'].size()[0]", 4, False)]
    compile_.value_checks = [ShapeCheck(check) for check in checks]
    return Predictor(Facts(compiles=[compile_]), "f")


def _served(p: Predictor, *args: object, **named: object) -> bool | None:
    """Whether the entry serves; None when the prediction is unsure."""
    prediction = p.predict(p.values([(4,), *args], named))
    return prediction.entry is not None if prediction.certain else None


def test_value_checks_compare_as_dynamo_does() -> None:
    p = _valued(
        "L['mask'] is None",
        "L['flag'] == True",
        "L['mode'] == 'a'",
        "L['scale'] == 1.5",
    )
    assert _served(p, None, True, "a", 1.5)
    assert not _served(p, (4,), True, "a", 1.5)  # a tensor, by its shape, is not None
    assert not _served(p, None, 1, "a", 1.5)  # TRUE_MATCH is the object True: 1 is not it
    assert not _served(p, None, True, "b", 1.5)
    assert not _served(p, None, True, "a", 2)  # a float's check: 2 is an int
    assert _served(p, None, True, "a") is None  # scale not given: unsure, not assumed
    assert _served(p, None, True, "a", 2.5) is False


def test_checks_on_the_program_through_a_parameter_are_not_the_calls() -> None:
    p = _valued(
        "L['func'].__closure__[1].cell_contents.__defaults__[1] is None",
        "L['other'] is None",  # a local that is no parameter (a wrapper's free variable)
        "L['self'].training == True",
    )
    closure, other, training = (c for c in p.models[0].checks if c.kind == "value")
    assert closure.program_state and other.program_state
    assert not training.program_state  # a module's flag the user's code may read: give it
    prediction = p.predict(p.values([(4,)], {}))
    assert prediction.unchecked == ["L['self'].training == True"]
    assert prediction.assumed == [closure.text, other.text, UNRECORDED_TENSOR]
    assert _served(p, **{"self.training": False}) is False


def test_a_guard_tree_value_line_is_read_and_a_string_holding_a_comment_is_not() -> None:
    from symdebug.torchtext.guard_tree import parse_guard_tree

    tree = parse_guard_tree(
        "| | +- NONE_MATCH: L['mask'] is None  # if mask is None:  # f.py:3 in f\n"
        "| | +- TRUE_MATCH: L['flag'] == True  # if flag:  # f.py:4 in f\n"
        "| | +- EQUALS_MATCH: L['mode'] == 'a'  # if mode == 'a':  # f.py:5 in f\n"
        "| | +- EQUALS_MATCH: L['n'] == 3  # x * n  # f.py:6 in f\n"
        "| | +- EQUALS_MATCH: L['m'] == 'a # b'  # m  # f.py:7 in f\n"
        "| | +- DICT_CONTAINS: not ___dict_contains('use_cache', L['kwargs'])  # kwargs.get(a)\n"
        "| | +- DICT_LENGTH: len(L['kwargs']) == 1  # kwargs[a] = v  # f.py:8 in f\n"
        "| | +- LENGTH_CHECK: not L['args']  # f(*args)  # f.py:9 in f\n"
    )
    assert [line.code for line in tree.value_lines] == [
        "L['mask'] is None",
        "L['flag'] == True",
        "L['mode'] == 'a'",
        "not ___dict_contains('use_cache', L['kwargs'])",
    ]
    assert [line.code for line in tree.shape_lines] == [
        "len(L['kwargs']) == 1",
        "len(L['args']) == 0",
    ]
    assert tree.value_lines[0].note == "if mask is None:  # f.py:3 in f"
    assert tree.ints == {"L['n']": (3, "x * n  # f.py:6 in f")}


def test_literal_defaults_are_read_from_the_source(tmp_path: object) -> None:
    import linecache
    from pathlib import Path

    from symdebug.predict.arguments import defaults_from_source

    path = Path(str(tmp_path)) / "defs.py"
    path.write_text(
        "def f(x, flag=False, *, mask=None, scale=1.5, fn=len, size=(2, 3)):\n    return x\n"
    )
    linecache.checkcache(str(path))
    found = defaults_from_source(str(path), 1, "f")
    assert found == {"flag": False, "mask": None, "scale": 1.5, "size": (2, 3)}  # not fn=len


def test_a_keyword_passed_or_not_is_checked_as_torch_does() -> None:
    signature = Signature(names=["x"], positional=1, varkw="kwargs")
    compile_ = Compile("0/0", 0, 0, name="f", signature=signature)
    compile_.inputs = [InputDim("L['x'].size()[0]", 4, False)]
    compile_.shape_checks = [ShapeCheck("len(L['kwargs']) == 1")]
    compile_.value_checks = [
        ShapeCheck("not ___dict_contains('use_cache', L['kwargs'])"),
        ShapeCheck("___dict_contains('mask', L['kwargs'])"),
    ]
    p = Predictor(Facts(compiles=[compile_]), "f")
    assert _served(p, mask=(4,))
    assert not _served(p, use_cache=True)  # len is 1, but not the key compiled for
    assert not _served(p, mask=(4,), use_cache=True)
    assert not _served(p)

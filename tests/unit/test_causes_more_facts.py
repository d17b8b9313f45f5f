"""Recompile causes that used to be ``unknown``, on hand-built facts and reason texts as torch
2.13 words them (the same causes from a real torch.compile: ``integration/test_causes_more.py``)."""

from __future__ import annotations

import ast

import pytest

from symdebug.fixes.fix_code import is_user_code
from symdebug.model.types import (
    Compile,
    Facts,
    Frame,
    Guard,
    InputDim,
    ShapeCheck,
    Signature,
    Specialization,
    Symbol,
    TensorCheck,
)
from symdebug.model.values import Source
from symdebug.processors.causes import classify_specializations, framework_cause
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.recompiles import link_recompiles, name_compiles
from symdebug.torchtext.guard_tree import parse_guard_tree
from symdebug.torchtext.reasons import identity_change, parse_reason

#: The issue's log: a framework check with no guard event to match it.
CONTIGUOUS = (
    "0/1: (y.size()[0] // 2) != 1  # h = y[: y.shape[0] // 2]  # model.py:12 in forward "
    "(_prims_common/__init__.py:285 in check_contiguous_sizes_strides)"
)
REASONS = [
    ("0/0: len(feats) == 2  # return sum(f.sum() for f in feats)  # a.py:3 in g", "length"),
    (
        "0/0: ___check_obj_id(fn, 140428836698400), type=<class 'builtin_function_or_method'>",
        "identity",
    ),
    (
        "0/0: ___check_type_id(o, 93979207773200), type=<class '__main__.A'>  # a.py:3 in q",
        "identity",
    ),
    ("0/0: expected type of 'n' to be a tensor type, ' but found <class 'int'>", "identity"),
    ("0/0: n is None  # return x * 2 if n is None else x * n  # a.py:3 in k", "identity"),
    ("0/0: FuncDefaultsGuardAccessor: Not a function on fn", "identity"),
    ("0/2: CodeGuardAccessor: Not a function on fn.__code__", "identity"),
]


@pytest.mark.parametrize(("text", "kind"), REASONS)
def test_reason_kinds(text: str, kind: str) -> None:
    reason = parse_reason(text)
    assert reason.kind == kind
    assert reason.source in ("feats", "fn", "o", "n")


def test_what_changed_is_said() -> None:
    assert identity_change(parse_reason(REASONS[1][0])) == (
        "fn is another object than the compile saw (a builtin_function_or_method when compiled)"
    )
    assert identity_change(parse_reason(REASONS[2][0])).startswith("o has another type")
    assert (
        identity_change(parse_reason(REASONS[4][0])) == "n was None in one call and not in another"
    )


@pytest.mark.parametrize(
    ("text", "source", "change"),
    [
        ("0/0: self.training == True  #   # m.py:5 in forward", "self.training", "value"),
        ("0/0: mode == 'a'  #   # m.py:9 in f", "mode", "value"),
        ("0/0: tensor 'x' rank mismatch. expected 1, actual 2", "x", "number of dims"),
    ],
)
def test_a_baked_in_value_or_rank_is_what_changed(text: str, source: str, change: str) -> None:
    """Torch's reason names it; the cause is no longer ``unknown``."""
    reason = parse_reason(text)
    assert (reason.kind, reason.source) == ("identity", source)
    assert change in identity_change(reason)
    facts = _facts(text.replace("0/0:", "0/1:"))
    _fixed(facts)
    (recompile,) = facts.recompiles
    assert recompile.cause == "identity"
    assert "compiles once" in recompile.fixes[0].explanation


def _facts(reason: str, *, name: str = "forward") -> Facts:
    facts = Facts(compiles=[Compile("0/0", 0, 0, name=name), Compile("0/1", 0, 1, name=name)])
    facts.compiles.append(Compile("0/2", 0, 2, status="failed"))
    facts.compiles[2].recompile_reasons = [reason]
    return facts


def _fixed(facts: Facts) -> None:
    name_compiles(facts).apply()
    link_recompiles(facts).apply()
    suggest_fixes(facts).apply()
    for recompile in facts.recompiles:
        assert recompile.cause != "unknown" and recompile.fixes, recompile.reasons
        for fix in recompile.fixes:
            ast.parse(fix.code)
            assert is_user_code(fix.code), fix.code


@pytest.mark.parametrize(("text", "kind"), REASONS)
def test_recompile_cause_and_fix_from_the_reason(text: str, kind: str) -> None:
    facts = _facts(text.replace("0/0:", "0/1:").replace("0/2:", "0/1:"))
    _fixed(facts)
    (recompile,) = facts.recompiles
    assert recompile.cause == kind
    assert recompile.sources[0].startswith("L['")


def _length_fix_codes(entry: Compile) -> list[str]:
    """The fixes of a recompile whose ``len(feats) == 2`` failed on ``entry`` (0/1)."""
    facts = _facts("0/1: len(feats) == 2  # for f in feats:  # a.py:3 in g")
    facts.compiles[1] = entry
    _fixed(facts)
    (recompile,) = facts.recompiles
    assert recompile.cause == "length" and recompile.sources == ["L['feats']"]
    return [fix.code for fix in recompile.fixes]


def _tensor(source: str) -> TensorCheck:
    return TensorCheck(source, "Tensor", "DispatchKeySet(CPU)", "torch.float32")


PAD = "feats = torch.nn.utils.rnn.pad_sequence(feats, batch_first=True)"


def test_a_length_fix_stacks_only_a_list_the_guards_show_holding_tensors() -> None:
    """Torch words ``len(d) == 2`` alike for a dict: only the guard tree tells them apart."""
    listed = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['feats'][0]")])
    listed.value_checks = [ShapeCheck("type(L['feats']) is list")]
    assert _length_fix_codes(listed)[0] == PAD
    aliased = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['x']")])
    aliased.shape_checks = [ShapeCheck("L['x'] is L['feats'][0]")]  # [x, x]: no TENSOR_MATCH
    assert _length_fix_codes(aliased)[0] == PAD
    keyed = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['feats']['a']")])
    keyed.value_checks = [ShapeCheck("type(L['feats']) is dict")]
    codes = _length_fix_codes(keyed)
    assert not any("pad_sequence" in code for code in codes)
    assert codes[0].startswith("torch._dynamo.config.recompile_limit")
    unknown = Compile("0/1", 0, 1, name="forward")  # a list of ints, or guards not seen
    assert not any("pad_sequence" in code for code in _length_fix_codes(unknown))


def _not_only_tensors() -> list[Compile]:
    """A tensor item beside an int, a pair, and ``*feats``: no list of tensors to stack."""
    mixed = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['feats'][0]")])
    mixed.inputs = [InputDim(Source("L['feats'][1]"), 1, False)]
    pairs = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['feats'][0][0]")])
    pairs.value_checks = [ShapeCheck("type(L['feats'][0]) is tuple")]
    spread = Compile("0/1", 0, 1, name="forward", tensor_checks=[_tensor("L['feats'][0]")])
    spread.signature = Signature(varargs="feats")
    return [mixed, pairs, spread]


@pytest.mark.parametrize("entry", _not_only_tensors(), ids=["mixed", "pairs", "varargs"])
def test_a_length_fix_does_not_stack_what_is_not_only_tensors(entry: Compile) -> None:
    assert not any("pad_sequence" in code for code in _length_fix_codes(entry))


def test_framework_check_without_a_guard_is_the_operation() -> None:
    facts = _facts(CONTIGUOUS)
    _fixed(facts)
    assert facts.recompiles[0].cause == "op_requirement"
    assert framework_cause("_inductor/codegen/simd.py:100 in codegen") == "inductor"
    assert framework_cause("_dynamo/variables/torch.py:10 in call_function") is None


def test_a_guard_recorded_at_an_earlier_line_is_found_by_its_expression() -> None:
    facts = _facts(CONTIGUOUS.replace("(_prims_common", "(_dynamo/utils.py:4243 in run_node) (_p"))
    slice_line = Frame("/src/model.py", 11, "forward", "h = y[: y.shape[0] // 2]  # SLICE")
    facts.guards = [
        Guard("0/1#0", "((s17//2)) <= s17", "0/1", cause="op_requirement", user_stack=[slice_line]),
        Guard("0/1#1", "Ne((s17//2), 1)", "0/1", cause="op_requirement", user_stack=[slice_line]),
    ]
    for guard in facts.guards:
        guard.symbols, guard.sources = ["s17"], ["L['y'].size()[0]"]
    _fixed(facts)
    (recompile,) = facts.recompiles
    assert recompile.guard is facts.guards[1] and recompile.cause == "op_requirement"
    assert recompile.fixes[0].settings == {
        "torch.fx.experimental._config.backed_size_oblivious": True
    }


def test_the_compile_at_the_limit_gets_its_frame_name_and_the_limit_fix() -> None:
    facts = _facts("0/1: tensor 'x' size mismatch at index 0. expected 3, actual 4", name="m")
    facts.compiles[2].fail_reason = "Dynamo recompile limit exceeded"
    for compile_ in facts.compiles:
        compile_.dynamic, compile_.automatic_dynamic = False, False
    facts.specializations = [Specialization("L['x'].size()[0]", 3, "0/1")]
    classify_specializations(facts).apply()
    _fixed(facts)
    (recompile,) = facts.recompiles
    assert facts.compiles[2].name == "m" and recompile.cause == "dynamic_false"
    assert [f.code for f in recompile.fixes] == [
        "torch._dynamo.maybe_mark_dynamic(x, 0)",
        "torch._dynamo.config.recompile_limit = 4",
    ]


def test_a_static_mark_decides_the_specialization() -> None:
    tree = parse_guard_tree(
        "| | +- DIMENSION_DYNAMIC_MARKING_GUARD: ((getattr(L['x'], '_dynamo_static_indices', "
        "set()).issubset({0})) if hasattr(L['x'], '_dynamo_static_indices') else True)  # f"
    )
    assert tree.marked_static == ["L['x'].size()[0]"] and tree.marked_dynamic == []
    facts = Facts(compiles=[Compile("0/0", 0, 0, dynamic=False, marked_static=tree.marked_static)])
    facts.specializations = [Specialization("L['x'].size()[0]", 4, "0/0")]
    facts.symbols = [Symbol("s0", ["L['y'].size()[0]"], "0/0")]
    classify_specializations(facts).apply()
    assert facts.specializations[0].cause == "mark_static"

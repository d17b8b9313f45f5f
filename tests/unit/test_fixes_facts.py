"""Fixes as objects, for every cause, on tiny hand-built facts (no torch): each one's code
parses, reads in the user's names, and never asserts a user branch's condition."""

from __future__ import annotations

import ast

import pytest

from symdebug.facts_session import FactsSession
from symdebug.fixes.fix_code import (
    branch_condition,
    computed_index,
    is_user_code,
    python_expression,
    user_name,
)
from symdebug.model.serialize import facts_from_dict, facts_from_json, facts_to_json
from symdebug.model.types import (
    CAUSES,
    Compile,
    Facts,
    Fix,
    Frame,
    Guard,
    Recompile,
    Specialization,
    Symbol,
)
from symdebug.model.values import Cause, Source
from symdebug.processors.fixes import (
    DYNAMIC_SOURCES,
    SIZE_OBLIVIOUS,
    STATIC_BY_DEFAULT,
    UNBACKED_SOURCES,
    evidence_of,
    fix_lines,
    fixes_for,
    suggest_fixes,
)

SIZE = "L['x'].size()[1]"
#: One guard per situation the issue names, and a few more: (cause, expr, source, line).
CASES: list[tuple[Cause, str, str, str]] = [
    ("user_branch", "s77 < 64", "L['x'].size()[0]", "if x.shape[0] < 64:"),
    ("user_branch", "Eq(Mod(s77, 2), 0)", SIZE, "if x.shape[1] % 2 == 0:"),
    ("user_branch", "Eq(Mod(s77, 2), 0)", SIZE, "if (x.shape[1] % 2 == 0 and"),
    ("user_branch", "s77 > 2", "L['___stack0'].size()[0]", "return y if y.shape[0] > 2 else y"),
    ("op_requirement", "Eq(s77 - 1, 10)", SIZE, "return h[:, T - 1]"),
    ("op_requirement", "Eq(s77 - 1, 10)", SIZE, "return h[:, h.shape[1] // 2]"),
    ("op_requirement", "Eq(Mod(s77, 2), 0)", SIZE, "return x.view(x.shape[0], -1, 2)"),
    ("op_requirement", "Eq(s77, 4*((s77//4)))", SIZE, "return x.view(-1, 4)"),
    ("op_requirement", "Eq(s77, 8)", SIZE, "return x.view(8, -1)"),
    ("op_requirement", "s77 >= 3", SIZE, "return x.unfold(1, 3, 1)"),
    ("zero_one", "", "L['kwargs']['input_ids'].size()[1]", ""),
    ("zero_one", "", "L['___stack0'].size()[0]", ""),
    ("static_by_default", "", SIZE, ""),
    ("static_by_default", "", "L['___stack1'].size()[0]", ""),
    ("static_by_default", "", "L['n']", ""),
    ("static_by_default", "", "L['self'].chunk", ""),
    ("int_specialized", "Eq(s77, 3)", "L['n']", "for _ in range(n):"),
    ("int_specialized", "", "L['self']._modules['layers']._modules['0'].k", ""),
    ("duck_sizing", "", SIZE, ""),
    ("mark_dynamic_violated", "Eq(s77, 8)", SIZE, "return x.view(8, -1)"),
    ("mark_static", "", SIZE, ""),
    ("dynamic_false", "", SIZE, ""),
    ("dynamic_false", "", "L['n']", ""),
    ("dynamic_false", "", "L['___stack0'].size()[0]", ""),
    ("length", "", "L['feats']", ""),
    ("identity", "", "L['fn']", ""),
    ("op_requirement", "Ne((s77//2), 1)", SIZE, "return y[: y.shape[0] // 2].contiguous()"),
    ("inductor", "Eq(s77, 8)", SIZE, ""),
    ("backward", "", SIZE, ""),
    # Recompiles no size explains: the fix reads torch's check (no guard holds it).
    ("dtype", "tensor 'x' dtype mismatch. expected Float, actual Double", "L['x']", ""),
    ("strides", "tensor 'x' stride mismatch at index 1. expected 16, actual 1", "L['x']", ""),
    ("requires_grad", "tensor 'x' requires_grad mismatch. expected requires_grad=0", "L['x']", ""),
    (
        "device",
        "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect), "
        "actual DispatchKeySet(Meta, BackendSelect)",
        "L['x']",
        "",
    ),
    (
        "dispatch_keys",
        "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, ADInplaceOrView), "
        "actual DispatchKeySet(CPU)",
        "L['x']",
        "",
    ),
    ("global_state", "GLOBAL_STATE changed: grad_mode", "", ""),
    ("global_state", "GLOBAL_STATE changed: autocast(cpu)_enabled", "", ""),
    ("global_state", "GLOBAL_STATE changed: num_threads", "", ""),
    ("mark_dynamic_range", "2 <= x.size()[0] <= 8", "L['x'].size()[0]", ""),
    ("static_by_default", "temperature == 0.7", "L['temperature']", ""),
    # What the user declared: their fixes read the declaration (test_declared_fixes.py).
    ("static_sources", "", SIZE, ""),
    ("dynamic_shapes", "", SIZE, ""),
    ("unknown", "", SIZE, ""),
]


def _guard(cause: Cause, expr: str, source: str, line: str) -> Guard:
    frame = [Frame("/src/model.py", 3, "forward", line)] if line else []
    symbols = ["s77"] if "s77" in expr else []
    sources = [source] if symbols else []
    return Guard(
        "0/0#0", expr, "0/0", cause=cause, user_stack=frame, symbols=symbols, sources=sources
    )


def _all_fixes() -> list[tuple[tuple[Cause, str, str, str], Fix]]:
    found = []
    for case in CASES:
        for small in (False, True):
            evidence = evidence_of(case[0], case[2], _guard(*case), small=small)
            found += [(case, fix) for fix in fixes_for(evidence)]
    return found


@pytest.mark.parametrize(("case", "fix"), _all_fixes(), ids=lambda v: str(v)[:40])
def test_every_fix_is_python_in_the_users_names(case: tuple[str, ...], fix: Fix) -> None:
    ast.parse(fix.code)
    assert is_user_code(fix.code), (case, fix.code)
    for text in ("Eq(", "Ne(", "Mod(", "___", "s77", "u0", "size()"):
        assert text not in fix.code, (case, fix.code)
    assert fix.kind in ("setting", "mark", "code")
    assert fix.explanation and fix.verified is None
    if fix.kind == "code":
        assert fix.settings == {}
    else:
        assert fix.settings, fix  # a replay can try it without editing the program


def test_every_cause_is_covered() -> None:
    assert {case[0] for case in CASES} == set(CAUSES)


#: The first fix of each case no size explains (the cases after ``backward``), in order.
NOT_SIZES = [
    "x = x.to(torch.float32)",
    "x = x.contiguous()",
    "x = x.detach()",
    "x = x.to('cpu')",
    "x = x.clone()",
    "with torch.no_grad():\n    ...",
    "with torch.autocast('cpu'):\n    ...",
    "torch._dynamo.config.recompile_limit = 16",
    "torch._dynamo.maybe_mark_dynamic(x, 0)",
    f"{STATIC_BY_DEFAULT} = False",
]


def test_what_changed_is_fixed_at_the_call() -> None:
    """A dtype, a layout, grad mode ...: each variant compiles once; the fix makes calls alike."""
    first = CASES.index(("backward", "", SIZE, "")) + 1
    cases = CASES[first : first + len(NOT_SIZES)]
    for case, code in zip(cases, NOT_SIZES, strict=True):
        fixes = fixes_for(evidence_of(case[0], case[2], _guard(*case)))
        assert fixes[0].code == code, case
        said = fixes[0].explanation
        assert "compiles once" in said or "symbolic" in said or "compiles anew" in said


def test_a_float_is_worded_for_floats() -> None:
    case = ("static_by_default", "temperature == 0.7", "L['temperature']", "")
    codes = [f.code for f in fixes_for(evidence_of(case[0], case[2], _guard(*case)))]
    assert codes == [f"{STATIC_BY_DEFAULT} = False", "temperature = torch.tensor(temperature)"]


def test_no_check_of_a_user_branch_or_of_a_pinned_size() -> None:
    for case, fix in _all_fixes():
        if case[0] == "user_branch" or "Eq(s77 - 1" in case[1] or "Mod" in case[1]:
            assert "torch._check" not in fix.code, (case, fix.code)


def _codes(cause: Cause, expr: str, source: str, line: str, small: bool = False) -> list[str]:
    evidence = evidence_of(cause, source, _guard(cause, expr, source, line), small=small)
    return [fix.code for fix in fixes_for(evidence)]


def test_branch_gets_torch_cond_of_the_users_condition() -> None:
    assert _codes(*CASES[0]) == ["torch.cond(x.shape[0] < 64, true_fn, false_fn, (x,))"]
    # The line does not parse alone: the guard, turned into Python, is the condition.
    assert _codes(*CASES[2]) == ["torch.cond(x.shape[1] % 2 == 0, true_fn, false_fn, (x,))"]
    # An intermediate at a graph break: the user's line names it (y), and the branch works
    # on it, so it is the operand (never an argument the guard's sizes lead back to).
    assert _codes(*CASES[3]) == ["torch.cond(y.shape[0] > 2, true_fn, false_fn, (y,))"]


def test_last_element_index_is_rewritten_not_pinned() -> None:
    codes = _codes(*CASES[4])
    assert codes == ["h[:, -1]", "h.select(1, T - 1)", "torch.narrow(h, 1, T - 1, 1)"]
    assert _codes(*CASES[5])[0] == "h.select(1, h.shape[1] // 2)"
    assert _codes(*CASES[8]) == []  # x.view(8, -1) needs that size: no fix beats a wrong one


def test_divisibility_pads_to_a_multiple() -> None:
    (code,) = _codes(*CASES[6])
    assert code == (
        "x = torch.nn.functional.pad(x.movedim(1, -1), (0, -x.shape[1] % 2)).movedim(-1, 1)"
    )
    assert "% 4" in _codes(*CASES[7])[0]
    # A multiple of the numel, or a size at least 8: padding one dim answers neither.
    numel = "Eq(s77*s27, 4*(((s77*s27)//4)))"
    assert _codes("op_requirement", numel, SIZE, "y = x.reshape(x.numel() // 4, 4)") == []
    assert _codes("op_requirement", "Ne(8*((s77//8)), 0)", SIZE, "return x[:8]") == []


def test_zero_one_puts_size_oblivious_first_and_unbacked_last() -> None:
    fixes = fixes_for(evidence_of("zero_one", "L['kwargs']['input_ids'].size()[1]"))
    assert [f.settings for f in fixes] == [
        {SIZE_OBLIVIOUS: True},
        {SIZE_OBLIVIOUS: True, DYNAMIC_SOURCES: "L['kwargs']['input_ids']:1"},
        {UNBACKED_SOURCES: "L['kwargs']['input_ids']:1"},
    ]
    assert fixes[2].code == "torch._dynamo.decorators.mark_unbacked(kwargs['input_ids'], 1)"
    assert "data-dependent" in fixes[2].explanation
    # A static-by-default size that was 1: what helps is what helps a 0/1 size.
    small = fixes_for(evidence_of("static_by_default", SIZE, small=True))
    assert small[0].settings == {SIZE_OBLIVIOUS: True}


def test_a_dict_items_mark_needs_the_key() -> None:
    """``batch['bias']`` may be left out of a call: the mark must not raise ``KeyError``."""
    mark, _ = fixes_for(evidence_of("static_by_default", "L['batch']['bias'].size()[0]"))
    assert mark.code == "if 'bias' in batch: torch._dynamo.maybe_mark_dynamic(batch['bias'], 0)"
    (kept,) = [f for f in fixes_for(evidence_of("zero_one", SIZE)) if "unbacked" in f.code]
    assert kept.code == "torch._dynamo.decorators.mark_unbacked(x, 1)"


@pytest.mark.parametrize("cause", ["int_specialized", "static_by_default"])
def test_an_int_attribute_is_named_and_gets_the_module_setting_only_on_a_module(
    cause: Cause,
) -> None:
    """Dynamo keeps a module's int a constant; a dataclass's becomes dynamic like an int."""
    named, module = fixes_for(evidence_of(cause, "L['self']._modules['block'].k"))
    assert named.settings == {DYNAMIC_SOURCES: "L['self']._modules['block'].k"}
    assert "stays a constant" in named.explanation  # automatic dynamic never makes it dynamic
    assert module.settings == {"torch._dynamo.config.allow_unspec_int_on_nn_module": True}
    field = fixes_for(evidence_of(cause, "L['cfg'].n_heads"))
    assert field[0].settings == {DYNAMIC_SOURCES: "L['cfg'].n_heads"}
    assert "cfg.n_heads" in field[0].explanation and "nn.Module" not in field[0].explanation
    (cell,) = fixes_for(evidence_of(cause, "L['f'].__closure__[0].cell_contents"))
    assert cell.settings == {STATIC_BY_DEFAULT: False} and "closure cell" in cell.explanation


def test_internal_names_get_a_whole_program_setting() -> None:
    (fix,) = fixes_for(evidence_of("static_by_default", "L['___stack1'].size()[0]"))
    assert fix.settings == {STATIC_BY_DEFAULT: False} and "graph break" in fix.explanation
    (fix,) = fixes_for(evidence_of("zero_one", "L['___stack0'].size()[0]"))
    assert fix.settings == {SIZE_OBLIVIOUS: True}


def test_static_by_default_marks_with_the_users_name() -> None:
    mark, whole = fixes_for(evidence_of("static_by_default", "L['self'].w.size()[0]"))
    assert mark.code == "torch._dynamo.maybe_mark_dynamic(self.w, 0)"
    assert mark.settings == {DYNAMIC_SOURCES: "L['self'].w:0"}
    assert whole.settings == {STATIC_BY_DEFAULT: False}


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("L['x']", "x"),
        ("L['kwargs']['input_ids']", "kwargs['input_ids']"),
        ("L['self']._modules['layers']._modules['0'].w", "self.layers[0].w"),
        ("L['___stack0']", None),
        ("G['__import_torch'].nn", None),
        ("dict(type(L['c']).__mro__[1].__dict__)['f'].__defaults__[0]", None),
    ],
)
def test_user_names(source: str, name: str | None) -> None:
    assert user_name(Source(source)) == name


def test_sympy_becomes_python() -> None:
    names = {"s0": "x.shape[1]", "s1": "y.shape[0]"}
    assert python_expression("Eq(Mod(s0, 2), 0)", names) == "x.shape[1] % 2 == 0"
    assert python_expression("Ne(s0, s1)", names) == "x.shape[1] != y.shape[0]"
    assert python_expression("Max(1, s0) >= 2*s1", names) == "max(1, x.shape[1]) >= 2 * y.shape[0]"
    assert python_expression("u0 > 1", names) is None  # unbacked: no user name
    assert python_expression("CeilToInt(s0)", names) is None  # no Python of that name


def test_user_lines() -> None:
    assert branch_condition("elif n % 2 == 0:") == "n % 2 == 0"
    assert branch_condition("while x.shape[0] > 1:") == "x.shape[0] > 1"
    assert branch_condition("return a if x.size(0) > 2 else b") == "x.size(0) > 2"
    assert branch_condition("y = x + 1") is None
    use = computed_index("out = h[..., T - 1]")
    assert use is None  # after an Ellipsis the dimension is not known
    use = computed_index("out = h[T - 2]")
    assert use is not None and (use.dim, use.negative) == (0, "h[-2]")


def _session_facts() -> Facts:
    facts = Facts(compiles=[Compile("0/0", 0, 0, name="f"), Compile("0/1", 0, 1, name="f")])
    guards = [_guard("user_branch", "s77 < 64", "L['x'].size()[0]", "if x.shape[0] < 64:")]
    guards += [Guard(f"0/1#{i}", "s77 < 64", "0/1", cause="user_branch") for i in range(3)]
    for guard in guards[1:]:
        guard.user_stack, guard.symbols, guard.sources = (
            guards[0].user_stack,
            ["s77"],
            [Source("L['x'].size()[0]")],
        )
    facts.guards = guards
    facts.symbols = [Symbol("s1", [SIZE], "0/1", hint=1, state="specialized", cause="zero_one")]
    spec = Specialization(SIZE, 1, "0/1", cause="zero_one")
    facts.specializations = [spec]
    facts.recompiles = [
        Recompile(
            "0/1",
            "0/0",
            ["0/0: tensor 'x' size mismatch at index 1. expected 6, actual 1"],
            cause="static_by_default",
            specialization=spec,
        )
    ]
    return facts


def test_equal_fixes_are_one_object_and_fix_is_the_first_ones_text() -> None:
    facts = _session_facts()
    suggest_fixes(facts).apply()
    first = facts.guards[0].fixes[0]
    assert all(g.fixes[0] is first for g in facts.guards)
    assert all(g.fix == str(first) for g in facts.guards)
    recompile = facts.recompiles[0]
    assert recompile.fixes[0].settings == {SIZE_OBLIVIOUS: True}  # it changed to a size of 1
    assert recompile.fixes[0] is facts.specializations[0].fixes[0]


def test_fixes_round_trip_and_stay_shared() -> None:
    facts = _session_facts()
    suggest_fixes(facts).apply()
    facts.guards[0].fixes[0].verified = True
    facts.guards[0].fixes[0].effect = "f: 3 -> 2 compiles"
    again = facts_from_json(facts_to_json(facts))
    assert again.guards[0].fixes == facts.guards[0].fixes
    assert again.guards[1].fixes[0] is again.guards[0].fixes[0]
    assert again.guards[0].fixes[0].verified is True


def test_an_older_documents_text_fixes_are_suggested_again() -> None:
    facts = _session_facts()
    suggest_fixes(facts).apply()
    document = FactsSession(facts).to_json()
    import orjson

    old = orjson.loads(document)
    old["schema_version"] = 4
    for key in ("guards", "symbols", "specializations", "recompiles", "explanations"):
        for record in old[key]:
            record.pop("fixes", None)
            if key == "explanations":
                record["fixes"] = ["torch._check(Eq(x, 1))"]
            elif record.get("fix"):
                record["fix"] = "torch._check(Eq(x, 1))"
    read = facts_from_dict(old)
    assert all(not g.fixes for g in read.guards)  # text is not read as code
    session = FactsSession.from_json(orjson.dumps(old))
    assert session.facts.guards[0].fixes[0].code.startswith("torch.cond(")
    assert "Eq(" not in (session.facts.guards[0].fix or "")


def test_fix_text_shows_code_kind_and_verification() -> None:
    fix = Fix("a = 1\nb = 2", "setting", "why", {"a": 1}, verified=False, effect="f: 2 -> 2")
    assert fix_lines(fix) == [
        "  fix: [setting; failed: f: 2 -> 2]",
        "      a = 1",
        "      b = 2",
        "      # why",
    ]
    one = Fix("x[:, -1]", "code", "")
    assert fix_lines(one, "") == ["fix: x[:, -1]  [code; not tried]"]


def test_a_recompile_that_made_several_inputs_dynamic_marks_them_together() -> None:
    from symdebug.model.types import Recompile, Symbol

    keys, values = "L['k'].size()[1]", "L['v'].size()[1]"
    facts = Facts(
        symbols=[
            Symbol("6", [Source(keys)], "0/0", 6, state="static-by-default"),
            Symbol("6", [Source(values)], "0/0", 6, state="static-by-default"),
            Symbol("s0", [Source(keys)], "0/1", 7),
            Symbol("s1", [Source(values)], "0/1", 7),
        ],
        recompiles=[Recompile("0/1", "0/0", ["0/0: tensor 'k' size mismatch at index 1"])],
    )
    facts.recompiles[0].cause = "static_by_default"
    suggest_fixes(facts).apply()
    first = facts.recompiles[0].fixes[0]
    assert first.settings == {DYNAMIC_SOURCES: "L['k']:1,L['v']:1"}
    assert ast.parse(first.code) and "(k.shape[1], v.shape[1])" in first.explanation
    facts.symbols[3].state = "static-by-default"  # one input only: its own mark says it
    suggest_fixes(facts).apply()
    assert all("L['v']" not in str(f.settings) for f in facts.recompiles[0].fixes)


def test_the_key_a_fix_table_answers_by_is_the_evidence_field_by_field() -> None:
    """Tables key answers by a tuple of the Evidence's fields: same order, same values."""
    import dataclasses

    from symdebug.fixes.fix_evidence import Evidence, evidence_key

    guard = Guard(
        id="g0",
        expr="Eq(Mod(s27, 2), 0)",
        compile_id="0/0",
        symbols=["s27"],
        sources=[Source("L['x'].size()[1]")],
        user_stack=[Frame("m.py", 3, "f", "y = x.view(-1, 2)")],
    )
    key = evidence_key("op_requirement", "L['x'].size()[1]", guard, small=True)
    evidence = evidence_of("op_requirement", "L['x'].size()[1]", guard, small=True)
    assert tuple(getattr(evidence, f.name) for f in dataclasses.fields(Evidence)) == key
    assert key[3] == (("s27", "x.shape[1]"),) and key[4] == "y = x.view(-1, 2)"

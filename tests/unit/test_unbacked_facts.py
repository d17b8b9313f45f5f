"""Unbacked symbols and data-dependent failures on hand-built events and facts (no torch)."""

from __future__ import annotations

import ast

from symdebug.builders.compile_events import group_by_compile
from symdebug.builders.symbols_builder import build_symbols
from symdebug.builders.unbacked import MARKED, graph_asserts, is_unbacked, origin_of, parse_range
from symdebug.events import CompileKey, Event
from symdebug.fixes.data_dependent_fixes import data_dependent_fixes
from symdebug.fixes.fix_code import branch_condition, without_comment
from symdebug.model.types import Frame, GraphBreak, Symbol
from symdebug.model.values import CompileId
from symdebug.torchtext.data_dependent import expression_of, failed_compile_break
from symdebug.torchtext.guard_tree import GuardTree
from symdebug.torchtext.stacks import StackReader

FAKE = "/venv/torch/_subclasses/fake_impls.py"
BUILDER = "/venv/torch/_dynamo/variables/builder.py"
REASON = (
    "Consider annotating your code using torch._check*(). Could not guard on data-dependent "
    "expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  (Size-like symbols: none)\n\n"
    "Caused by: if n == 1:  # src/f.py:6 in g (_dynamo/variables/tensor.py:2606 in evaluate_expr)"
)


def _frame(filename: str, name: str) -> Frame:
    return Frame(filename, 1, name)


def test_origin_from_the_creating_frames() -> None:
    dispatch = _frame(FAKE, "dispatch_to_op_implementations_dict")
    assert origin_of([_frame(FAKE, "local_scalar_dense"), dispatch]) == "the result of .item()"
    assert origin_of([_frame(FAKE, "nonzero"), dispatch]) == "the size of nonzero()"
    rep = [_frame(FAKE, "repeat_interleave_tensor")]
    assert origin_of(rep) == "the size of repeat_interleave()"
    assert (
        origin_of([_frame(BUILDER, "<lambda>"), _frame(BUILDER, "wrap_to_fake_tensor_and_record")])
        == MARKED
    )
    assert origin_of([_frame("/venv/torch/_dynamo/x.py", "other")]) == ""


def test_unbacked_names_and_ranges() -> None:
    assert is_unbacked("u0") and is_unbacked("zuf12") and not is_unbacked("s0")
    assert parse_range("[-int_oo, int_oo]") == ("-int_oo", "int_oo")
    assert parse_range("[0, 3]") == (0, 3) and parse_range(None) is None


def test_expression_and_failed_compile() -> None:
    assert expression_of(REASON) == "Eq(u0, 1)" and expression_of("no") == ""
    metrics = {"fail_type": "UserError", "fail_reason": REASON}
    metrics |= {"fail_user_frame_filename": "/src/f.py", "fail_user_frame_lineno": 6}
    brk = failed_compile_break(CompileId("0/0"), metrics)
    assert brk is not None and brk.failed and brk.expression == "Eq(u0, 1)"
    assert brk.user_frame is not None and brk.user_frame.line == "if n == 1:"
    assert failed_compile_break(CompileId("0/0"), {"fail_reason": "other"}) is None


def test_comment_does_not_hide_a_branch() -> None:
    assert branch_condition("if n == 1:  # a comment") == "n == 1"
    assert without_comment('s = "#x"  # c') == 's = "#x"'


def _break(expression: str, line: str) -> GraphBreak:
    frame = Frame("/src/f.py", 6, "g", line)
    return GraphBreak(
        CompileId("0/0"), "Data-dependent branching", user_frame=frame, expression=expression
    )


def _item(line: str = "n = x.sum().item()") -> Symbol:
    frame = Frame("/src/f.py", 5, "g", line)
    return Symbol(
        "u0",
        [],
        CompileId("0/0"),
        state="unbacked",
        user_frame=frame,
        origin="the result of .item()",
    )


def test_branch_on_item_gets_cond_and_caller_never_check() -> None:
    fixes = data_dependent_fixes(_break("Eq(u0, 1)", "if n == 1:"), _item())
    assert [f.code for f in fixes] == [
        "torch.cond(n == 1, true_fn, false_fn, (n,))",
        "n = x.sum().item()",
    ]
    for fix in fixes:
        ast.parse(fix.code)


def test_sign_test_on_an_item_count_gets_a_range_check() -> None:
    fixes = data_dependent_fixes(_break("u0 < 0", "if n < 0:"), _item())
    assert fixes[0].code == "torch._check(n >= 0)" and "never negative" in fixes[0].explanation
    assert not any(
        f.code.startswith("torch._check")
        for f in data_dependent_fixes(_break("u0 < 5", "if n < 5:"), _item())
    )


def test_marked_size_gets_a_backed_mark() -> None:
    symbol = Symbol("u0", ["L['x'].size()[0]"], CompileId("0/0"), state="unbacked", origin=MARKED)
    fixes = data_dependent_fixes(_break("Eq(u0, 1)", "if x.shape[0] == 1:"), symbol)
    assert fixes[0].code == "torch._dynamo.maybe_mark_dynamic(x, 0)"
    assert fixes[0].settings == {"torch.compiler.config.dynamic_sources": "L['x']:0"}
    assert fixes[1].code == "torch.cond(x.shape[0] == 1, true_fn, false_fn, (x,))"


def test_other_breaks_get_no_data_dependent_fix() -> None:
    assert data_dependent_fixes(_break("", "print(x)"), None) == []


def test_runtime_asserts_of_a_graph() -> None:
    payload = (
        '_assert_scalar_default = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion '
        "failed for expression u0 >= 0 on node 'ge'\");\n"
        '_assert_1 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for '
        "expression u0 <= 3 on node 'le'\")"
    )
    assert graph_asserts(payload) == ["u0 >= 0", "u0 <= 3"] and graph_asserts(None) == []


def _symbol_event(symbol: str, torch_files: list[str], user: list[tuple[str, int]]) -> Event:
    """A ``create_unbacked_symbol`` event: the user's stack, and Python's (outermost first)."""
    user_stack = [{"filename": f, "line": n, "name": "f"} for f, n in user]
    stack = [{"filename": "/src/run.py", "line": 9, "name": "<module>"}] + [
        {"filename": f, "line": 1, "name": "inner"} for f in torch_files
    ]
    body = {"symbol": symbol, "user_stack": user_stack, "stack": stack, "vr": "[-int_oo, int_oo]"}
    return Event("create_unbacked_symbol", body, CompileKey(0, 0))


def test_a_symbol_aot_created_has_no_user_line() -> None:
    """Past Dynamo, the user stack is Python's: the program's call and FX's generated code."""
    dynamo = ["/venv/torch/_dynamo/symbolic_convert.py", "/venv/torch/_dynamo/variables/tensor.py"]
    aot = [*dynamo[:1], "/venv/torch/_functorch/aot_autograd.py", FAKE]
    events = [
        _symbol_event("u0", [*dynamo, FAKE], [("/src/f.py", 5)]),
        _symbol_event("u1", aot, [("/src/run.py", 9), ("<string>", 1)]),
    ]
    (group,) = group_by_compile(events)
    symbols = build_symbols(group, GuardTree(), StackReader({}))
    lines = {
        s.name: (s.user_frame.filename, s.user_frame.lineno) if s.user_frame else None
        for s in symbols
    }
    assert lines == {"u0": ("/src/f.py", 5), "u1": None}

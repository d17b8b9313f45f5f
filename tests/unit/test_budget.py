"""Compile budgets on hand-built facts: what each count counts, and the failure's words.

Also: the pytest plugin module imports no torch (pytest loads it in every run), and its
report file names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symdebug.model.types import (
    Callee,
    Compile,
    Facts,
    Fix,
    Frame,
    GraphBreak,
    Guard,
    Recompile,
    Specialization,
    Symbol,
)
from symdebug.queries.budget import Budget, counts, excesses
from symdebug.queries.budget_text import budget_message, check_said, plain
from symdebug.runs.pytest_plugin import report_path

FILE = "/home/me/project/test_model.py"
LOOP = Frame(FILE, 6, "repeat", "for _ in range(n):")
CALL = Frame(FILE, 20, "test_loop", "run(compiled, x, n)")


def compile_(number: int, frame: int = 0, name: str = "repeat") -> Compile:
    return Compile(f"{frame}/{number}", frame, number, name=name, filename=FILE, caller=CALL)


def int_recompile(number: int, value: int) -> Recompile:
    guard = Guard(
        f"0/{number - 1}#0",
        f"Eq(s86, {value})",
        f"0/{number - 1}",
        cause="int_specialized",
        user_stack=[LOOP],
        symbols=["s86"],
        sources=["L['n']"],
    )
    reason = f"0/{number - 1}: n == {value}  # for _ in range(n):  # test_model.py:6 in repeat"
    fix = Fix("n = torch.as_tensor(n)", "code", "pass it as a tensor")
    return Recompile(
        f"0/{number}", f"0/{number - 1}", [reason], guard, "int_specialized", fixes=[fix]
    )


def int_facts() -> Facts:
    """``repeat(x, n)`` called with n = 2, 3, 4: three compiles, two recompiles."""
    specs = [
        Specialization("L['n']", 2, "0/0", "static_by_default", user_frame=LOOP, kind="int"),
        Specialization("L['n']", 3, "0/1", "int_specialized", user_frame=LOOP, kind="int"),
        Specialization("L['n']", 4, "0/2", "int_specialized", user_frame=LOOP, kind="int"),
    ]
    return Facts(
        compiles=[compile_(0), compile_(1), compile_(2)],
        recompiles=[int_recompile(1, 2), int_recompile(2, 3)],
        specializations=specs,
    )


def test_each_count_as_the_budget_counts_it() -> None:
    facts = int_facts()
    print_at = Frame(FILE, 9, "noisy", 'print("x")')
    breaks = [
        GraphBreak(c, "Failed to trace builtin operator", user_frame=print_at)
        for c in ("1/0", "1/1")
    ]
    facts.compiles += [compile_(0, 1, "noisy"), compile_(1, 1, "noisy")]
    facts.graph_breaks = breaks
    # A library's configuration constant and a marked-static dim are not counted.
    facts.compiles.append(compile_(0, 2, "forward"))
    facts.specializations += [
        Specialization("L['self'].head_dim", 64, "2/0", "int_specialized", kind="int"),
        Specialization("L['x'].size()[1]", 8, "2/0", "mark_static"),
    ]
    facts.symbols.append(
        Symbol("s1", ["L['self'].head_dim"], "2/0", state="specialized", expected="transformers")
    )
    assert counts(facts) == {
        "recompiles": 2,
        "graph_breaks": 1,  # one line and reason, broken in two compiles
        "specializations": 1,  # n in repeat, twice specialized; not static_by_default
        "compiles": 6,
    }
    found = excesses(facts, Budget(recompiles=1, graph_breaks=1, compiles=None))
    assert [(e.kind, e.limit, len(e.items)) for e in found] == [("recompiles", 1, 2)]
    assert found[0].first.fact is facts.recompiles[1]


def test_the_first_excess_in_the_user_names() -> None:
    message = budget_message(int_facts(), Budget(recompiles=0))
    assert message is not None
    lines = message.splitlines()
    assert lines[0] == "compile budget exceeded: 2 recompiles (budget: recompiles=0)"
    assert lines[1].startswith("recompile 0/1 of repeat (")
    assert lines[1].endswith(") is the first over the limit of 0 recompiles:")
    assert "  failed check: n == 2  (required by entry 0/0)" in lines
    assert f"  check made at: {FILE}:6 in repeat" in lines
    assert "      for _ in range(n):" in lines
    assert f"  called at: {FILE}:20 in test_loop" in lines
    assert "  fix: n = torch.as_tensor(n)  [code; not tried]" in lines
    assert "  0/2 repeat: int_specialized: n == 3 (test_model.py:6)" in lines
    assert "Eq(" not in message
    assert "L['" not in message


def test_within_budget_no_message() -> None:
    assert budget_message(int_facts(), Budget(recompiles=2, compiles=3)) is None
    assert budget_message(Facts(), Budget(recompiles=0, compiles=0)) is None


def test_checks_without_a_guard_said_from_torch_reason() -> None:
    size = Recompile(
        "0/1",
        "0/0",
        ["0/0: tensor 'x' size mismatch at index 0. expected 8, actual 2"],
        sources=["L['x'].size()[0]"],
    )
    assert check_said(size, {}) == "x.shape[0] == 8"
    wrapped = Recompile("0/1", "0/0", ["0/0: 2 <= L['args'][0].size()[0] <= 4  # if ..."])
    assert check_said(wrapped, {"L['args'][0]": "x"}) == "2 <= x.shape[0] <= 4"
    internal = Recompile("0/1", "0/0", ["0/0: ___stack0.size()[0] == 3"])
    assert check_said(internal, {}) == ""
    assert plain("L['self']._modules['lin'].k == 4", {}) == "self.lin.k == 4"


def test_a_wrapper_frame_says_the_parameter_and_the_call_line_may_be_unknown() -> None:
    compiled = Compile(
        "0/1",
        0,
        1,
        name="inner",
        filename=FILE,
        callee=Callee("M.forward", names={"L['args'][0]": "x"}),
    )
    guard = Guard(
        "0/0#0",
        "s77 > 4",
        "0/0",
        cause="user_branch",
        symbols=["s77"],
        sources=["L['args'][0].size()[0]"],
    )
    recompile = Recompile("0/1", "0/0", ["0/0: args[0].size()[0] > 4"], guard, "user_branch")
    facts = Facts(compiles=[Compile("0/0", 0, 0, name="inner", filename=FILE), compiled])
    facts.recompiles = [recompile]
    message = budget_message(facts, Budget()) or ""
    assert "failed check: x.shape[0] > 4" in message
    assert "check made at: (torch recorded no user line for it)" in message
    assert "called at: (torch logged no user line for the call)" in message
    assert "fix: none suggested" in message
    assert "recompile 0/1 of M.forward (" in message


def test_budget_limits_are_counts() -> None:
    assert str(Budget(recompiles=0, graph_breaks=1)) == "recompiles=0, graph_breaks=1"
    with pytest.raises(ValueError, match="recompiles must be None or an int >= 0"):
        Budget(recompiles=-1)
    with pytest.raises(ValueError, match="compiles"):
        Budget(compiles=True)


def test_report_names_are_safe_and_distinct(tmp_path: Path) -> None:
    one = report_path(tmp_path, "tests/test_m.py::test_x[a/b]")
    other = report_path(tmp_path, "tests/test_m.py::test_x[a_b]")
    assert one.parent == tmp_path
    assert one.name.startswith("tests_test_m.py_test_x_a_b-")
    assert one.suffix == ".html"
    assert one != other
    assert len(report_path(tmp_path, "t.py::x" * 100).name) < 140
    assert report_path(tmp_path, "t.py::x", "gw1") != report_path(tmp_path, "t.py::x")


def test_the_plugin_imports_no_torch() -> None:
    code = "import sys, symdebug.runs.pytest_plugin; print('torch' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "False"

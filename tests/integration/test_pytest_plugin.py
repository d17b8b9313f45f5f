"""The pytest plugin in real pytest runs: the ``compile_budget`` fixture and marker, and
``--symdebug-report``, serially and under pytest-xdist.

Each run writes test files into ``tmp_path`` and runs ``python -m pytest`` on them in a
fresh process, with an empty ini file so that this repository's configuration does not
apply; the plugin is loaded as any user's run loads it (symdebug's ``pytest11`` entry
point).  Every budget is tested on real ``torch.compile(backend="eager")`` compiles.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from symdebug.runs.pytest_plugin import report_path

# The user's tests.  A conftest resets Dynamo before each test, so that no test is served
# by what another compiled (the plugin never resets: that is the user's choice) and the
# outcomes do not depend on the order or the worker.  The compiled functions are called
# through ``call``: torch 2.13 logs the stack above a compile without its innermost user
# frame, so ``Compile.caller`` is the line that called ``call`` (the test's own line).
TESTS = """
import pytest
import torch


def repeat(x, n):
    for _ in range(n):  # LOOP
        x = x + 1
    return x


def branch(x):
    if x.shape[0] > 4:  # BRANCH
        return x * 2
    return x - 1


def noisy(x):
    y = x + 1
    print("inside the compiled function")  # PRINT
    return y * 2


def test_int_loop_over(compile_budget):
    compiled = torch.compile(repeat, backend="eager", dynamic=True)
    with compile_budget(recompiles=0):
        for n in (2, 3):
            compiled(torch.randn(4), n)  # CALL_LOOP


def test_branch_over(compile_budget):
    compiled = torch.compile(branch, backend="eager", dynamic=True)
    with compile_budget(recompiles=0) as session:
        compiled(torch.randn(8))
        compiled(torch.randn(2))  # CALL_BRANCH
    raise AssertionError("not reached: the block fails first")


def test_in_budget(compile_budget):
    compiled = torch.compile(branch, backend="eager", dynamic=True)
    with compile_budget(recompiles=0, compiles=1) as session:
        for rows in (8, 9, 17):
            compiled(torch.randn(rows))
    assert len(session.compiles) == 1


def test_specializations_over(compile_budget):
    compiled = torch.compile(repeat, backend="eager", dynamic=True)
    with compile_budget(recompiles=None, specializations=0):
        compiled(torch.randn(4), 2)


@pytest.mark.compile_budget(recompiles=0)
def test_marker_over():
    compiled = torch.compile(branch, backend="eager", dynamic=True)
    compiled(torch.randn(8))
    compiled(torch.randn(2))


@pytest.mark.compile_budget(recompiles=0, compiles=1)
def test_marker_in_budget():
    compiled = torch.compile(branch, backend="eager", dynamic=True)
    compiled(torch.randn(8))
    compiled(torch.randn(9))


@pytest.mark.compile_budget(recompiles=None, graph_breaks=0)
def test_graph_break_over():
    torch.compile(noisy, backend="eager")(torch.randn(3))  # CALL_NOISY


def test_body_raises(compile_budget):
    compiled = torch.compile(repeat, backend="eager", dynamic=True)
    with compile_budget(recompiles=0):
        for n in (2, 3):
            compiled(torch.randn(4), n)
        raise KeyError("the test's own error")


def test_fails_without_compiling():
    assert 1 + 1 == 3, "plain failure"
"""

CONFTEST = """
import pytest
import torch


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
"""

FILES = ("test_budget_a.py", "test_budget_b.py")
EXPECTED = {
    "test_int_loop_over": "failed",
    "test_branch_over": "failed",
    "test_in_budget": "passed",
    "test_specializations_over": "failed",
    "test_marker_over": "failed",
    "test_marker_in_budget": "passed",
    "test_graph_break_over": "failed",
    "test_body_raises": "failed",
    "test_fails_without_compiling": "failed",
}
#: The failing tests whose call compiled: each gets a report.
PASSING = {"test_in_budget", "test_marker_in_budget"}
COMPILED_FAILURES = set(EXPECTED) - PASSING - {"test_fails_without_compiling"}


def line_of(tag: str) -> int:
    """The line number, in each test file, of the line that ends with ``# <tag>``."""
    lines = TESTS.splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.endswith(f"# {tag}"))


@dataclass
class Run:
    """One pytest run: each test's outcome and failure text, the whole output."""

    root: Path
    outcomes: dict[str, str]
    failures: dict[str, str]
    output: str


def start_pytest(root: Path, *options: str) -> subprocess.Popen[str]:
    """Write the tests into ``root`` and start pytest on them there."""
    root.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (root / name).write_text(TESTS)
    (root / "conftest.py").write_text(CONFTEST)
    (root / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    command = [
        *(sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--strict-markers"),
        *("-c", str(root / "pytest.ini"), "--rootdir", str(root)),
        *(f"--junitxml={root / 'junit.xml'}", *options, *FILES),
    ]
    return subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(root: Path, process: subprocess.Popen[str]) -> Run:
    """Wait for the run; its outcomes and failures from its JUnit XML."""
    output, _ = process.communicate(timeout=600)
    assert process.returncode == 1, output[-5000:]  # some tests failed, none errored out
    return Run(root, *read_junit(root / "junit.xml"), output)


def read_junit(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    outcomes, failures = {}, {}
    for case in ET.parse(path).iter("testcase"):
        key = f"{case.get('classname', '').rsplit('.', 1)[-1]}.py::{case.get('name')}"
        failed = case.find("failure")
        outcomes[key] = "failed" if failed is not None else _other(case)
        failures[key] = (failed.text or "") if failed is not None else ""
    return outcomes, failures


def _other(case: ET.Element) -> str:
    return "error" if case.find("error") is not None else "passed"


#: The runs, side by side: serially without reports, serially with
#: ``--symdebug-report reports``, and by two xdist workers (one file each) with reports.
RUNS = {
    "serial": (),
    "reported": ("--symdebug-report", "reports"),
    "xdist": ("-n", "2", "--dist", "loadfile", "--symdebug-report", "reports"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Every run of :data:`RUNS`, started at once (each is mostly torch's import)."""
    roots = {name: tmp_path_factory.mktemp(name) for name in RUNS}
    started = {name: start_pytest(roots[name], *options) for name, options in RUNS.items()}
    return {name: finish(roots[name], process) for name, process in started.items()}


@pytest.fixture(scope="module")
def serial(runs: dict[str, Run]) -> Run:
    return runs["serial"]


@pytest.fixture(scope="module")
def reported(runs: dict[str, Run]) -> Run:
    return runs["reported"]


@pytest.fixture(scope="module")
def workers(runs: dict[str, Run]) -> Run:
    return runs["xdist"]


def expected_outcomes() -> dict[str, str]:
    return {f"{f}::{t}": o for f in FILES for t, o in EXPECTED.items()}


def where(run: Run, tag: str) -> str:
    return f"{FILES[0]}:{line_of(tag)}"  # pytest runs in run.root: paths are said from there


def called_at(run: Run, text: str, *tags: str) -> bool:
    """Whether the message says the call line is one of the tagged lines (file:line + code)."""
    return any(f"called at: {where(run, tag)} in " in text for tag in tags)


def said(run: Run, text: str) -> list[str]:
    """The error lines of a failure, its paths relative to the run and no addresses."""
    lines = text.replace(str(run.root), "<root>").splitlines()
    return [line for line in lines if line.startswith("E ") and "0x" not in line]


def assert_in_user_names(text: str) -> None:
    """No sympy and no Dynamo-internal name anywhere in the explanation."""
    for internal in ("Eq(", "Ne(", "L['", "___"):
        assert internal not in text, (internal, text)


def test_outcomes_are_the_budgets(serial: Run) -> None:
    assert serial.outcomes == expected_outcomes(), serial.output[-5000:]


def test_an_int_used_as_a_loop_count_explained(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_int_loop_over"]
    assert "CompileBudgetError: compile budget exceeded: 1 recompile (budget: recompiles=0)" in text
    assert "cause: int_specialized" in text
    assert "failed check: n == 2  (required by entry 0/0)" in text
    assert f"check made at: {where(serial, 'LOOP')} in repeat\n" in text
    assert "    for _ in range(n):  # LOOP" in text
    assert called_at(serial, text, "CALL_LOOP"), text
    assert "fix: n = torch.as_tensor(n)  [code; not tried]" in text
    assert_in_user_names(text)


def test_a_branch_on_a_size_explained(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_branch_over"]
    assert "not reached" not in text
    assert "cause: user_branch" in text
    assert "failed check: x.shape[0] > 4" in text
    assert f"check made at: {where(serial, 'BRANCH')} in branch\n" in text
    assert "if x.shape[0] > 4:  # BRANCH" in text
    assert called_at(serial, text, "CALL_BRANCH"), text
    assert "fix: torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))" in text
    assert_in_user_names(text)


def test_the_marker_holds_the_whole_test(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_marker_over"]
    assert "compile budget exceeded: 1 recompile (budget: recompiles=0)" in text
    assert "failed check: x.shape[0] > 4" in text
    assert serial.outcomes["test_budget_a.py::test_marker_in_budget"] == "passed"


def test_specializations_name_the_input(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_specializations_over"]
    assert "1 specialization (budget: specializations=0)" in text
    assert "specialization of n in repeat" in text
    assert "n is a constant (2) in compile(s) 0/0" in text
    assert "guard: n == 2" in text
    assert_in_user_names(text)


def test_a_graph_break_said_with_its_reason_and_line(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_graph_break_over"]
    assert "1 graph break (budget: graph_breaks=0)" in text
    assert "reason: Failed to trace builtin operator" in text
    assert f"break at: {where(serial, 'PRINT')} in noisy\n" in text
    assert 'print("inside the compiled function")  # PRINT' in text
    assert called_at(serial, text, "CALL_NOISY"), text
    assert "fix: torch._dynamo.config.reorderable_logging_functions.add(print)" in text


def test_the_test_body_error_wins(serial: Run) -> None:
    text = serial.failures["test_budget_a.py::test_body_raises"]
    assert "KeyError" in text
    assert "the test's own error" in text
    assert "compile budget" not in text


def test_no_trace_records_in_the_captured_logs(serial: Run) -> None:
    assert "torch.__trace" not in serial.output


def test_reports_of_failing_tests_that_compiled(reported: Run) -> None:
    assert reported.outcomes == expected_outcomes()
    reports = reported.root / "reports"
    written = {path.name for path in reports.iterdir()}
    wanted = {
        report_path(reports, f"{name}::{test}").name for name in FILES for test in COMPILED_FAILURES
    }
    assert written == wanted
    html = (reports / report_path(reports, "test_budget_a.py::test_body_raises").name).read_text()
    assert html.lstrip().lower().startswith("<!doctype html")
    assert f"symdebug report: {reports / sorted(wanted)[0]}" in reported.output


def test_under_xdist_outcomes_are_as_serial_and_both_workers_report(
    workers: Run, serial: Run
) -> None:
    assert workers.outcomes == serial.outcomes
    assert workers.failures.keys() == serial.failures.keys()
    for key, text in serial.failures.items():  # the same explanations
        assert said(workers, workers.failures[key]) == said(serial, text), key
    reports = workers.root / "reports"
    written = sorted(path.name for path in reports.iterdir())
    assert len(written) == 2 * len(COMPILED_FAILURES)
    ran = re.findall(r"\[(gw\d)\] \[ *\d+%\] FAILED (test_budget_\w)\.py::", workers.output)
    assert {worker for worker, _ in ran} == {"gw0", "gw1"}, workers.output[-3000:]
    assert {file for _, file in ran} == {"test_budget_a", "test_budget_b"}

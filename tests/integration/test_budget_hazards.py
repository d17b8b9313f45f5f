"""``compile_budget`` where tests share a process: what an earlier test left behind is named.

Issue 46, point 5.  The user's tests run in a real pytest, in a fresh process (the plugin
loaded by its entry point), in file order and without resetting Dynamo between them:
an entry compiled by an earlier test, a thread an earlier test left compiling, a block
entered twice, and a rank change.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

TESTS = """
import threading

import torch


def scale(x, k):
    return x * k


compiled = torch.compile(scale, backend="eager")


def test_a_warms_up():
    compiled(torch.ones(3), 2)


def test_b_against_an_earlier_entry(compile_budget):
    with compile_budget(recompiles=0):
        compiled(torch.ones(3), 3)


def test_c_block_entered_twice(compile_budget):
    block = compile_budget(recompiles=0)
    with block:
        with block:
            pass


def total(x):
    return x.sum()


def test_d_rank_change(compile_budget):
    summed = torch.compile(total, backend="eager")
    with compile_budget(recompiles=0):
        summed(torch.ones(3))
        summed(torch.ones(3, 2))


GO = threading.Event()
LEFT = []


def add_one(x):
    return x + 1


def work():
    GO.wait(60)
    torch.compile(add_one, backend="eager")(torch.ones(2))


def test_e_leaves_a_thread_compiling():
    thread = threading.Thread(target=work, name="left-compiling")
    thread.start()
    LEFT.append(thread)


def test_f_budget_meets_that_thread(compile_budget):
    with compile_budget(recompiles=0, compiles=0):
        GO.set()
        LEFT[0].join(60)
"""
EXPECTED = {
    "test_a_warms_up": "passed",
    "test_b_against_an_earlier_entry": "failed",
    "test_c_block_entered_twice": "failed",
    "test_d_rank_change": "failed",
    "test_e_leaves_a_thread_compiling": "passed",
    "test_f_budget_meets_that_thread": "failed",
}


@pytest.fixture(scope="module")
def failures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("budgets")
    (root / "test_hazards.py").write_text(TESTS)
    (root / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", "pytest.ini"),
            *(f"--junitxml={root / 'junit.xml'}", "test_hazards.py"),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-4000:]
    found = {}
    for case in ET.parse(root / "junit.xml").iter("testcase"):
        failed = case.find("failure")
        found[str(case.get("name"))] = "passed" if failed is None else failed.text or "failed"
    assert {k: "passed" if v == "passed" else "failed" for k, v in found.items()} == EXPECTED
    return found


def test_a_recompile_against_an_earlier_tests_entry_says_so(failures: dict[str, str]) -> None:
    said = failures["test_b_against_an_earlier_entry"]
    assert "compile budget exceeded: 1 recompile" in said
    assert "entry 0/0 was compiled before this block (by an earlier test" in said


def test_a_block_entered_twice_is_refused(failures: dict[str, str]) -> None:
    assert "this compile budget block is already held" in failures["test_c_block_entered_twice"]


def test_a_rank_change_is_never_fixed_by_the_recompile_limit(failures: dict[str, str]) -> None:
    said = failures["test_d_rank_change"]
    assert "x has another number of dims than the compile saw (1)" in said
    assert "x = x.reshape(-1)" in said
    assert "recompile_limit" not in said


def test_a_thread_still_compiling_from_an_earlier_test_is_named(
    failures: dict[str, str],
) -> None:
    said = failures["test_f_budget_meets_that_thread"]
    assert "compile budget exceeded: 1 compile" in said
    assert "1 compile(s) ran in thread 'left-compiling'" in said
    assert "it was running before the budget was entered" in said

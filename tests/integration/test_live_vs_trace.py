"""The same run, captured live and written to ``TORCH_TRACE``, gives the same answers.

One process runs the programs of ``tests/live_trace_programs.py`` under
``symdebug.capture()`` with ``TORCH_TRACE`` set, and writes what the live session answers
about each program; this test reads the log that run wrote (``symdebug.load_trace``) and asks
it the same questions.  Compared, per program: compiles, specializations, symbols and their
states, recompiles (failed entry, cause, torch's reasons, failed check, user line), guards
(status, cause, user line), graph breaks, every fix's code, ``why`` of each input and symbol
(its fields and its text), and ``predict`` at new sizes (outcome, entry, certainty).  Every
compared list is non-empty for every program, so no comparison passes on two empty lists.

Where a log cannot know what live capture knows, both sides are normalised explicitly below,
each with the README's words for why.  A difference no document explains is a bug: each one
known is a strict ``xfail`` of its program and question (``KNOWN_DIFFERENCES``), so that its
fix is noticed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from live_trace_programs import PROGRAMS, answers

import symdebug

TESTS = Path(__file__).resolve().parents[1]
#: Each program's answers by question, from one session.
Answers = dict[str, dict[str, list[Any]]]

FIELDS = (
    "compiles",
    "specializations",
    "symbols",
    "recompiles",
    "guards",
    "graph_breaks",
    "fixes",
    "why",
    "predict",
)
#: Where a log knows less than live capture and no document says so: a bug, kept visible.
KNOWN_DIFFERENCES = {
    ("duck_columns", "symbols"): (
        "two sources duck-sized to one symbol that is then specialized (c.shape[1], "
        "d.shape[1]): live capture reads both sources from the ShapeEnv; from a log the guard "
        "tree has no duck-sizing line, so d.shape[1] becomes a symbol of its own named '2'"
    ),
}
#: Torch's recompile causes the programs cover, each at least once.
CAUSES = {
    "user_branch",
    "zero_one",
    "static_by_default",
    "int_specialized",
    "duck_sizing",
    "inductor",
}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Answers, Answers]:
    """The live session's answers, and those of the log the same run wrote."""
    out = tmp_path_factory.mktemp("live_vs_trace")
    env = dict(os.environ, TORCH_TRACE=str(out / "trace"))
    script = TESTS / "live_trace_programs.py"
    command = [sys.executable, str(script), str(out / "live.json")]
    subprocess.run(command, check=True, env=env, timeout=600)
    from_trace = symdebug.load_trace(out / "trace")
    assert isinstance(from_trace, symdebug.Session)
    return json.loads((out / "live.json").read_text()), answers(from_trace)


# The FX node an Inductor guard was added for is known to live capture only ("which FX node /
# kernel added a guard: exact live, inferred from logs", README): an Inductor guard has no
# user stack to infer it from.  So what is reached through that node is a live fact only: the
# line of its recompile (the node's line), the node's name in its fix's explanation
# ("Inductor's lowering of sum_1") and the kernel that computes the node (a step of ``why``'s
# chain from the recompile).  Each is replaced by the same words on both sides.
_LOWERING = re.compile(r"Inductor's lowering of (?:an operator|\S+) needs")
_KERNEL_STEP = re.compile(r"\n +-> kernel:\S+")
_NODE_ONLY_LIVE = "<the FX node's line: known live only>"


def _why_text(text: str) -> str:
    text = _LOWERING.sub("Inductor's lowering of <node> needs", text)
    return _KERNEL_STEP.sub("", text)


def _without_live_nodes(field: str, items: list[Any]) -> list[Any]:
    """``items`` with the facts that only live capture's FX node gives normalised."""
    if field == "recompiles":
        return [[*r[:-1], _NODE_ONLY_LIVE] if r[3] == "inductor" else r for r in items]
    if field == "why":  # the answer's text is its last item (an error's message, if it raised)
        return [[*answer[:-1], _why_text(answer[-1])] for answer in items]
    return items


def _cases() -> list[Any]:
    cases = []
    for program in PROGRAMS:
        for field in FIELDS:
            reason = KNOWN_DIFFERENCES.get((program, field))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(program, field, id=f"{program}-{field}", marks=marks))
    return cases


@pytest.mark.parametrize(("program", "field"), _cases())
def test_same_answers(both: tuple[Answers, Answers], program: str, field: str) -> None:
    live, trace = (side[program][field] for side in both)
    assert live, f"{program}: the live session has no {field} to compare"
    assert trace, f"{program}: the log's session has no {field} to compare"
    assert _without_live_nodes(field, trace) == _without_live_nodes(field, live)


def test_the_programs_recompile_for_every_cause(both: tuple[Answers, Answers]) -> None:
    live, _ = both
    causes = {r[3] for program in live.values() for r in program["recompiles"]}
    assert causes >= CAUSES


def test_the_answers_name_user_lines(both: tuple[Answers, Answers]) -> None:
    """The lines compared are there to compare: every program's guards or recompiles have
    user lines, so a wrong line from a log cannot pass as two missing ones."""
    live, _ = both
    for name, program in live.items():
        lines = [g[-1] for g in program["guards"]] + [r[-1] for r in program["recompiles"]]
        assert any(line is not None for line in lines), name

"""A notebook cell re-run defines its function again: answers follow the new definition.

Each definition is a frame of its own (torch sees a new code object); ``predict`` and
``rerun`` by name answer for the newest and say which, ``why`` keeps the older definitions'
states and recompiles apart, each labelled by where it was defined.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

BRANCHY = """import torch
def score(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1
cs = torch.compile(score, backend="eager")
cs(torch.randn(8)); cs(torch.randn(3)); cs(torch.randn(2))
"""
VIEWED = """def score(x):
    return x.view(-1, 2).sum(0)
cs = torch.compile(score, backend="eager")
cs(torch.randn(8)); cs(torch.randn(6))
"""


@pytest.fixture
def shell() -> Iterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    with capture_output():
        ip.run_line_magic("load_ext", "symdebug")
    yield ip
    ip.run_line_magic("unload_ext", "symdebug")
    ip.reset(new_session=False)


def _run(shell: InteractiveShell, cell: str) -> int:
    with capture_output():
        ran = shell.run_cell(cell, store_history=True)
    assert ran.success, ran.error_in_exec
    return int(ran.execution_count)


def test_predict_and_why_follow_the_new_definition(shell: InteractiveShell) -> None:
    old, new = _run(shell, BRANCHY), _run(shell, VIEWED)
    session = shell.magics_manager.registry["SymdebugMagics"].session
    assert [(c.compile_id, c.filename) for c in session.compiles] == [
        ("0/0", f"Cell [{old}]"),
        ("0/1", f"Cell [{old}]"),
        ("1/0", f"Cell [{new}]"),
        ("1/1", f"Cell [{new}]"),
    ]
    prediction = session.predict((5,), frame="score")
    assert prediction.order == ["1/1", "1/0"]  # the new score's entries, never 0/x
    assert prediction.recompiles  # 5 is odd: the new definition's view check fails
    (note,) = [n for n in prediction.notes if "frames are named score" in n]
    assert f"the newest, score (frame 1, Cell [{new}]:1)" in note
    assert f"older: score (frame 0, Cell [{old}]:2)" in note
    why = session.why("x", 0)
    assert why.compile_id == "1/1"
    assert [r.compile_id for r in why.recompiles] == ["1/1"]
    assert [step[0] for step in why.history] == ["1/0", "1/1"]
    (older,) = why.other_frames
    assert older.startswith(f"older definition score (frame 0, Cell [{old}]:2): 0/0 ")
    assert older.endswith("recompiles ['0/1']")
    text = str(why)
    assert "recompile 0/1" not in text and f"elsewhere: {older}" in text
    # The document every viewer reads: one explanation per definition, never mixed.
    stored = [e for e in session.explanations if e.source == "L['x'].size()[0]"]
    assert [(e.compile_id, e.recompiles) for e in stored] == [("0/1", ["0/1"]), ("1/1", ["1/1"])]
    old_steps, new_steps = ("\n".join(step.text for step in e.steps) for e in stored)
    assert "recompile 0/1" in old_steps and "recompile 1/1" not in old_steps
    assert "recompile 1/1" in new_steps and "recompile 0/1" not in new_steps
    assert session.index.explanation("L['x'].size()[0]") is stored[-1]  # the newest answers


def test_rerun_and_the_explorer_use_the_new_definition(shell: InteractiveShell) -> None:
    _run(shell, BRANCHY)
    _run(shell, VIEWED)
    session = shell.magics_manager.registry["SymdebugMagics"].session
    result = session.rerun(shell.user_ns["cs"], (10,), frame="score")
    assert result.entry == "1/1" and result.prediction_held and not result.recompiled
    with capture_output():
        shell.run_line_magic("symdebug", "")
    explorer = shell.magics_manager.registry["SymdebugMagics"]._explorers[0]
    explorer.request = {"action": "run", "frame": "score", "args": "[[12]]", "id": 1}
    assert explorer.error == ""
    assert explorer.results[-1]["text"].startswith("served by 1/1")


def test_a_reset_between_definitions_is_a_new_generation(shell: InteractiveShell) -> None:
    old = _run(shell, BRANCHY)
    new = _run(shell, "torch._dynamo.reset()\n" + VIEWED)
    session = shell.magics_manager.registry["SymdebugMagics"].session
    assert [c.compile_id for c in session.compiles] == ["0/0", "0/1", "0/0@1", "0/1@1"]
    assert session.predict((5,), frame="score").order == ["0/1@1", "0/0@1"]
    why = session.why("x", 0)
    assert [r.compile_id for r in why.recompiles] == ["0/1@1"]
    (older,) = why.other_frames
    assert older.startswith(f"older definition score (frame 0, Cell [{old}]:2)")
    assert f"Cell [{new}]" not in older

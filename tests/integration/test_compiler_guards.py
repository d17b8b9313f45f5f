"""A guard the compiler added (the backward graph's, Inductor's) says what it is and whether
it matters, the same in ``print(s)``, ``why()`` and the document's steps the viewer shows; and
a sweep's data carries the prediction each re-run call was judged by (issue 32, items 8, 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

import symdebug
from symdebug.model.compiler_guards import COMPILER_GUARD_SAID

VIEWER_WORDS = Path(__file__).resolve().parents[2] / "extension" / "src" / "compiler_guards.ts"
BACKWARD = COMPILER_GUARD_SAID["backward"]


def reduce_rows(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * w  # the backward graph reduces over the rows


@pytest.fixture(scope="module")
def backward_session() -> symdebug.Session:
    """Inductor's backward graph guards ``s77 <= 4096``; 5000 rows break it and recompile."""
    torch._dynamo.reset()
    w = torch.randn(3, requires_grad=True)
    with symdebug.capture() as s:
        compiled = torch.compile(reduce_rows, backend="inductor", dynamic=True)
        compiled(torch.randn(100, 3), w).sum().backward()
        compiled(torch.randn(5000, 3), w).sum().backward()
    return s


def test_why_says_what_a_backward_guard_is(backward_session: symdebug.Session) -> None:
    s = backward_session
    # The latest compile's installed guard, s77 > 4096 (its id depends on whether the torch
    # release adds a suppressed guard before it: torch_differences.py).
    guard = next(g for g in s.guards if g.compile_id == "0/1" and g.expr == "s77 > 4096")
    assert (guard.cause, guard.status) == ("backward", "installed")
    assert not guard.user_stack and guard.fx_node is None  # no line, no node of the user's
    text = str(s.why("x", 0))
    assert f"      ({BACKWARD})" in text
    chain = text.split("recompile 0/1", 1)[1]
    assert BACKWARD in chain and "Python control flow" not in chain
    explanation = next(e for e in s.facts.explanations if e.source == "L['x'].size()[0]")
    steps = [step.text for step in explanation.steps]
    # the guard in the user's names, torch's form beside (issue 46, point 21)
    said = next(t for t in steps if t.startswith(f"x.shape[0] > 4096  (torch: {guard.expr})"))
    after = steps[steps.index(said) + 1]
    assert after == BACKWARD  # not "no FX node: Python control flow"


def test_summary_says_what_backward_guards_are(backward_session: symdebug.Session) -> None:
    lines = str(backward_session).splitlines()
    heading = next(i for i, line in enumerate(lines) if "guards caused by backward" in line)
    assert lines[heading + 1] == f"      ({BACKWARD})"


def test_viewer_says_the_same_words() -> None:
    """The viewer's copy of the words (compiler_guards.ts) is Python's, word for word."""
    viewer = VIEWER_WORDS.read_text()
    for cause, said in COMPILER_GUARD_SAID.items():
        assert re.search(rf'\b{cause}:\s*"{re.escape(said)}"', viewer), cause


def branch(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def test_sweep_data_holds_the_prediction_each_call_was_judged_by() -> None:
    """Before the sweep, 2..4 would recompile; after 2 compiled, 3 and 4 were predicted served."""
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(branch, backend="eager", dynamic=True)
        compiled(torch.randn(8))
    result = s.sweep(compiled, x=[(n,) for n in range(2, 9)], progress=False)
    data = result.plot_data()
    assert data["x"] == list(range(2, 9))
    assert data["predicted"][:3] == [None, None, None]  # before the sweep: would recompile
    assert data["recompiled"][:3] == [True, False, False]
    assert data["predicted_at_call"][1:3] == data["actual"][1:3] == ["0/1", "0/1"]
    assert all(data["prediction_held"])
    assert s.facts.sweeps[-1]["predicted_at_call"] == data["predicted_at_call"]  # the viewers'

"""The stack evidence of every real guard equals its plain definition (whole stack, no memo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symdebug.model.types import Frame
from symdebug.torchtext.frames import FRAMEWORK_FRAMES_KEPT, is_plumbing, is_torch_file
from symdebug.torchtext.stacks import StackReader, phase_of
from symdebug.tracefile import read_trace_file

LOGS = sorted((Path(__file__).parents[1] / "data" / "triton").glob("*.log.gz"))


def framework_frames(stack: list[Frame]) -> list[Frame]:
    """The definition: torch frames below the last other frame, minus the plumbing tail."""
    start = max((i + 1 for i, f in enumerate(stack) if not is_torch_file(f.filename)), default=0)
    frames = stack[start:]
    end = len(frames)
    while end > 0 and is_plumbing(frames[end - 1]):
        end -= 1
    return frames[max(0, end - FRAMEWORK_FRAMES_KEPT) : end]


def runtime_assert(stack: list[Frame]) -> bool:
    names = [frame.name for frame in stack]
    index = names.index("_log_guard") if "_log_guard" in names else -1
    return index > 0 and names[index - 1] == "guard_or_defer_runtime_assert"


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_evidence_equals_the_definition(log: Path) -> None:
    stream = read_trace_file(log)
    reader = StackReader(stream.strings)
    stacks = [e.body["stack"] for e in stream.events if e.name == "guard_added_fast"]
    assert len(stacks) > 10
    for raw in stacks * 2:  # the second time, every answer comes from the memo
        evidence, whole = reader.evidence(raw), reader.frames(raw)
        assert evidence.frames == framework_frames(whole)
        assert evidence.phase == phase_of(whole)
        assert evidence.runtime_assert == runtime_assert(whole)


def test_damaged_stacks_are_read_without_the_memo() -> None:
    reader = StackReader({})
    damaged = [{"filename": ["not", "hashable"], "line": 1, "name": "f"}, "not a frame"]
    assert reader.evidence(damaged).phase == "unknown"
    assert reader.evidence(None).frames == []


def _frame(index: int, where: str) -> dict[str, object]:
    files = {
        "user": "model.py",
        "plumbing": "torch/fx/experimental/symbolic_shapes.py",
        "torch": "torch/utils/_pytree.py",  # torch, but no phase: the walk goes on
        "dynamo": "torch/_dynamo/symbolic_convert.py",
    }
    return {"filename": files[where], "line": index, "name": f"f{index}", "loc": "x"}


def test_a_stack_and_the_tails_of_it_are_remembered_apart() -> None:
    """Walks that stop early, and walks that run to the end of a stack past the memo's key.

    Innermost come many plumbing frames (read, not kept), then torch frames without a phase,
    so a tail of a stack keeps fewer frames than the stack itself: the memo must not answer
    one with the other's evidence.  Lengths run across the memo's flat key (14 frames).
    """
    stacks = []
    for plumbing in (0, 3, 10, 13, 14, 20):
        for torch_frames in (1, 5, 11, 12, 13, 20):
            inner = [_frame(i, "plumbing") for i in range(plumbing)]
            middle = [_frame(100 + i, "torch") for i in range(torch_frames)]
            full = [_frame(0, "user"), _frame(1, "dynamo"), *middle[::-1], *inner[::-1]]
            stacks += [full[-n:] for n in range(1, len(full) + 1)]
    shared = StackReader({})
    for raw in stacks + stacks[::-1]:
        assert shared.evidence(raw) == StackReader({}).evidence(raw)

"""The stack evidence of every real guard equals its plain definition (whole stack, no memo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symdebug.model.frames import FRAMEWORK_FRAMES_KEPT, is_plumbing, is_torch_file
from symdebug.model.stacks import StackReader, phase_of
from symdebug.model.types import Frame
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

"""What a guard's stack says: its framework frames, its compiler phase, a runtime assert.

Read from the innermost frame outwards, only as far as the evidence needs, and remembered
per stack tail: the guards of a compile share most of their stacks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any

from symdebug.model.frames import FRAMEWORK_FRAMES_KEPT, FrameReader, is_plumbing
from symdebug.model.types import Frame
from symdebug.model.values import Phase, posix_path

_FILE_AND_LINE = itemgetter("filename", "line")

#: How many innermost frames identify the evidence of a stack (the walk rarely goes deeper;
#: when it does, the answer is not remembered).
TAIL_DEPTH = 48

_PHASE_FILES: tuple[tuple[str, Phase], ...] = (
    ("/_inductor/", "inductor"),
    ("/_functorch/", "aot"),
    ("fx/experimental/proxy_tensor.py", "aot"),
    ("_dynamo/symbolic_convert.py", "dynamo"),
    ("/_dynamo/variables/", "dynamo"),
)


@lru_cache(maxsize=8192)
def _phase_of_file(filename: str) -> Phase:
    path = posix_path(filename)
    return next((phase for part, phase in _PHASE_FILES if part in path), "unknown")


def phase_of(stack: Iterable[Frame]) -> Phase:
    """Innermost phase-defining torch file on a stack (for logs, where no live context is)."""
    phases = (_phase_of_file(frame.filename) for frame in reversed(list(stack)))
    return next((phase for phase in phases if phase != "unknown"), "unknown")


@dataclass(slots=True)
class StackEvidence:
    """What the framework's part of a guard's stack says.

    Its frames, its phase, and whether torch deferred the guard to a runtime assert.
    """

    frames: list[Frame] = field(default_factory=list)
    phase: Phase = "unknown"
    runtime_assert: bool = False


def _walk(frames: Iterable[Frame]) -> tuple[StackEvidence, int]:
    """The evidence of the torch frames (innermost first), and how many were read."""
    found, inner, read = StackEvidence(), "", 0
    for frame in frames:
        read += 1
        if found.phase == "unknown":
            found.phase = _phase_of_file(frame.filename)
        pair = (inner, frame.name) == ("_log_guard", "guard_or_defer_runtime_assert")
        found.runtime_assert, inner = found.runtime_assert or pair, frame.name
        if found.frames or not is_plumbing(frame):
            found.frames.append(frame)
        if len(found.frames) >= FRAMEWORK_FRAMES_KEPT and found.phase != "unknown":
            break
    found.frames = found.frames[:FRAMEWORK_FRAMES_KEPT][::-1]
    return found, read


def _tail_key(raw: Any, depth: int = TAIL_DEPTH) -> tuple[Any, ...] | None:
    """The innermost frames' files and lines, or None when they cannot be a key."""
    if not isinstance(raw, list | tuple):
        return None
    try:
        key = (len(raw) <= depth, *map(_FILE_AND_LINE, raw[-depth:]))
        hash(key)
    except (TypeError, KeyError):  # not frames, or unhashable values: a damaged log
        return None
    return key


class StackReader(FrameReader):
    """A FrameReader that also reads, and remembers, the evidence of guard stacks."""

    def __init__(self, strings: Mapping[int, str]) -> None:
        super().__init__(strings)
        self._evidence: dict[tuple[Any, ...], StackEvidence] = {}
        self._phases: dict[tuple[Any, ...], Phase] = {}

    def evidence(self, raw_stack: Any) -> StackEvidence:
        """The framework frames, phase and runtime-assert flag of one stack.

        The phase is the innermost phase-defining file, looked for on the whole stack when
        the torch frames below the user's have none.
        """
        key = _tail_key(raw_stack)
        found = self._evidence.get(key) if key is not None else None
        if found is None:
            found, read = _walk(self.innermost_torch_frames(raw_stack))
            if key is not None and read < TAIL_DEPTH:
                self._evidence[key] = found
        if found.phase != "unknown":
            return found
        # No phase below the user's frames: the answer depends on the whole stack.
        return dataclasses.replace(found, phase=self._whole_stack_phase(raw_stack))

    def _whole_stack_phase(self, raw_stack: Any) -> Phase:
        """The innermost phase-defining file anywhere on the stack (remembered per stack)."""
        key = _tail_key(raw_stack, depth=len(raw_stack) if isinstance(raw_stack, list) else 0)
        if key is not None and key in self._phases:
            return self._phases[key]
        phase = phase_of(self.frames(raw_stack))
        if key is not None:
            self._phases[key] = phase
        return phase

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


def _stack_key(raw: Any) -> tuple[Any, ...] | None:
    """Every frame's file and line, or None when they cannot be a key."""
    if not isinstance(raw, list | tuple):
        return None
    try:
        key = tuple(map(_FILE_AND_LINE, raw))
        hash(key)
    except (TypeError, KeyError):  # not frames, or unhashable values: a damaged log
        return None
    return key


#: Marks, in a :class:`TailMemo` path, that the stack ended there.
_END = ("<end of stack>",)
_DAMAGED = (TypeError, KeyError, AttributeError)
#: Frames a :class:`TailMemo` reads in one flat key before it follows the stack frame by frame:
#: most walks stop within them (12 frames kept, plus the one that stopped the walk).
_HEAD = 14


class TailMemo:
    """Evidence remembered per stack tail: a flat key of the innermost frames, then a trie.

    A walk that read ``n`` frames depends on those ``n``, on the one that stopped it, and on
    nothing further out.  Most walks stop within the innermost :data:`_HEAD` frames, so
    their (file, line) pairs are one key, read at C speed; a walk that went deeper continues
    in a trie on (file, line), one frame at a time, only as deep as the walk that stored its
    answer went (a flat key of every frame cost more than the walk it saved).
    """

    def __init__(self) -> None:
        self.root: dict[Any, Any] = {}

    def get(self, raw: Any) -> StackEvidence | None:
        """The evidence stored for a stack with this tail, or None."""
        try:
            node = self.root.get(_head_key(raw))
            index = len(raw) - _HEAD - 1
            while type(node) is dict:
                if index < 0:
                    node = node.get(_END)
                    break
                item = raw[index]
                node = node.get((item["filename"], item["line"]))
                index -= 1
        except _DAMAGED:  # not frames, or unhashable values: a damaged log
            return None
        return node if type(node) is StackEvidence else None

    def put(self, raw: Any, depth: int, evidence: StackEvidence) -> None:
        """Remember ``evidence`` for every stack sharing the innermost ``depth`` frames."""
        try:
            head = _head_key(raw)
            keys: list[Any] = [(i["filename"], i["line"]) for i in reversed(raw[-depth:-_HEAD])]
            hash((head, *keys))
        except _DAMAGED:
            return
        if depth > _HEAD and depth >= len(raw):
            keys.append(_END)
        if not keys:
            self.root[head] = evidence
            return
        node = self.root.setdefault(head, {})
        for key in keys[:-1]:
            if type(node) is not dict:
                return  # a shorter tail already decides (cannot happen for one walk)
            node = node.setdefault(key, {})
        if type(node) is dict:
            node[keys[-1]] = evidence


def _head_key(raw: Any) -> tuple[Any, ...]:
    """The innermost frames' (file, line) pairs (a shorter stack's key is shorter)."""
    return tuple(map(_FILE_AND_LINE, raw[-_HEAD:]))


def all_mappings(raw: list[Any] | tuple[Any, ...], depth: int) -> bool:
    """Whether the innermost ``depth`` items are frame dicts (the walk skips other items)."""
    return all(isinstance(item, Mapping) for item in raw[-depth:])


class StackReader(FrameReader):
    """A FrameReader that also reads, and remembers, the evidence of guard stacks."""

    def __init__(self, strings: Mapping[int, str]) -> None:
        super().__init__(strings)
        self._evidence = TailMemo()
        self._phases: dict[tuple[Any, ...], Phase] = {}

    def evidence(self, raw_stack: Any) -> StackEvidence:
        """The framework frames, phase and runtime-assert flag of one stack.

        The phase is the innermost phase-defining file, looked for on the whole stack when
        the torch frames below the user's have none.
        """
        found = self._evidence.get(raw_stack) if isinstance(raw_stack, list | tuple) else None
        if found is None:
            found, read = _walk(self.innermost_torch_frames(raw_stack))
            if isinstance(raw_stack, list | tuple) and all_mappings(raw_stack, read + 1):
                self._evidence.put(raw_stack, read + 1, found)
        if found.phase != "unknown":
            return found
        # No phase below the user's frames: the answer depends on the whole stack.
        return dataclasses.replace(found, phase=self._whole_stack_phase(raw_stack))

    def _whole_stack_phase(self, raw_stack: Any) -> Phase:
        """The innermost phase-defining file anywhere on the stack (remembered per stack)."""
        key = _stack_key(raw_stack)
        if key is not None and key in self._phases:
            return self._phases[key]
        phase = phase_of(self.frames(raw_stack))
        if key is not None:
            self._phases[key] = phase
        return phase

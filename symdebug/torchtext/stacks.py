"""What a guard's stack says: its framework frames, its compiler phase, a runtime assert.

Read from the innermost frame outwards, only as far as the evidence needs, and remembered
per stack tail: the guards of a compile share most of their stacks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any, final

from symdebug.model.types import Frame
from symdebug.model.values import Phase, posix_path
from symdebug.torchtext.frames import FRAMEWORK_FRAMES_KEPT, FrameReader, is_plumbing

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


_DAMAGED = (TypeError, KeyError, AttributeError)
_SEQUENCE = (list, tuple)
#: The frames a :class:`TailMemo` reads first, as one key: most walks stop within them
#: (12 frames kept, plus the one that stopped the walk).
_HEAD = 14


@final
class _Span:
    """A node of a :class:`TailMemo`: stacks alike in their innermost ``start`` frames.

    They are told apart by their frames ``start`` to ``stop`` (counted from the innermost).
    """

    __slots__ = ("children", "frames", "start", "stop")

    def __init__(self, start: int, stop: int) -> None:
        self.start, self.stop = start, stop
        # Counted from the end: a stack shorter than ``stop`` gives fewer frames, none when it
        # is no longer than ``start``; so stacks of other lengths never share a key.
        self.frames = slice(-stop, -start or None)
        self.children: dict[tuple[Any, ...], _Span | StackEvidence] = {}

    def key(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        """The (file, line) pairs of this span's frames (fewer where the stack ends first)."""
        return tuple(map(_FILE_AND_LINE, raw[self.frames]))


class TailMemo:
    """Evidence remembered per stack tail, in a trie of spans of (file, line) pairs.

    A walk that read ``n`` frames depends on those ``n``, on the one that stopped it, and on
    nothing further out.  The root's span is the innermost :data:`_HEAD` frames, where most
    walks stop; a deeper walk adds a span reaching exactly as deep as it read, so the stacks
    after it that share its tail are answered in two dictionary lookups, each key built at C
    speed (a key of every frame cost more than the walk it saved, and a trie of single
    frames one Python step per frame).
    """

    def __init__(self) -> None:
        self.root = _Span(0, _HEAD)

    def get(self, raw: Sequence[Any]) -> StackEvidence | None:
        """The evidence stored for a stack with this tail, or None."""
        node = self.root
        try:
            while True:
                found = node.children.get(node.key(raw))
                if type(found) is not _Span:
                    return found
                node = found
        except _DAMAGED:  # not frames, or unhashable values: a damaged log
            return None

    def put(self, raw: Sequence[Any], depth: int, evidence: StackEvidence) -> None:
        """Remember ``evidence`` for every stack sharing the innermost ``depth`` frames."""
        node = self.root
        try:
            while depth > node.stop:
                key = node.key(raw)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Span(node.stop, depth)
                elif type(child) is not _Span:
                    return  # a shorter tail already decides (cannot happen for one walk)
                node = child
            node.children[node.key(raw)] = evidence
        except _DAMAGED:  # a damaged log: a span left without children answers nothing
            return


def all_mappings(raw: list[Any] | tuple[Any, ...], depth: int) -> bool:
    """Whether the innermost ``depth`` items are frame dicts (the walk skips other items)."""
    return all(isinstance(item, Mapping) for item in raw[-depth:])


class StackReader(FrameReader):
    """A FrameReader that also reads, and remembers, the evidence of guard stacks."""

    def __init__(self, strings: Mapping[int, str]) -> None:
        super().__init__(strings)
        self._evidence = TailMemo()
        self._phases: dict[tuple[Any, ...], Phase] = {}
        #: By the identity of the stack's list, the list itself held (so that no other list
        #: can take its identity): a stream read from a log shares each distinct stack.
        self._by_list: dict[int, tuple[Any, StackEvidence]] = {}

    def evidence(self, raw_stack: Any) -> StackEvidence:
        """The framework frames, phase and runtime-assert flag of one stack.

        The phase is the innermost phase-defining file, looked for on the whole stack when
        the torch frames below the user's have none.
        """
        known = self._by_list.get(id(raw_stack))
        if known is not None and known[0] is raw_stack:
            return known[1]
        found = self._read_evidence(raw_stack)
        self._by_list[id(raw_stack)] = (raw_stack, found)
        return found

    def _read_evidence(self, raw_stack: Any) -> StackEvidence:
        memo = isinstance(raw_stack, _SEQUENCE)
        found = self._evidence.get(raw_stack) if memo else None
        if found is None:
            found, read = _walk(self.innermost_torch_frames(raw_stack))
            if memo and all_mappings(raw_stack, read + 1):
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

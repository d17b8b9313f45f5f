"""The one typed event stream that live capture and trace files both produce.

An :class:`Event` is one structured-trace record as torch emitted it (its name, its metadata
body, its payload and its compile context), plus, for live capture only, a snapshot of the
compiler context taken while the event fired.  Everything downstream (the builder, the
processors) reads only this stream, so a session built from a ``TORCH_TRACE`` log and one
captured in-process go through the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]

#: Names of the synthetic events that live capture adds to torch's own stream.
GRAPH_INPUTS = "symdebug:graph_inputs"
SHAPE_ENV = "symdebug:shape_env"


@dataclass(frozen=True, slots=True)
class CompileKey:
    """Identity of one Dynamo frame compile attempt, as torch's trace context names it."""

    frame_id: int
    frame_compile_id: int
    attempt: int = 0
    compiled_autograd_id: int | None = None

    @property
    def compile_id(self) -> str:
        """The id torch prints: ``"0/1"``, or ``"!2/0/1"`` under compiled autograd."""
        base = f"{self.frame_id}/{self.frame_compile_id}"
        if self.compiled_autograd_id is not None:
            return f"!{self.compiled_autograd_id}/{base}"
        return base


@dataclass(slots=True)
class Event:
    """One structured-trace event.

    ``body`` is the event's metadata (for ``artifact`` events the name is
    ``"artifact:<artifact name>"``).  Stack frames inside ``body`` keep torch's interned
    filename ids; resolve them with the stream's string table.
    """

    name: str
    body: JSONDict
    key: CompileKey | None = None
    payload: str | None = None
    rank: int | None = None
    live: JSONDict | None = None
    extra: JSONDict = field(default_factory=dict)


@dataclass(slots=True)
class Problem:
    """Something in the input that could not be read, counted by kind."""

    kind: str
    where: str
    detail: str


@dataclass(slots=True)
class EventStream:
    """Events in order, the string table that resolves interned filenames, and problems."""

    events: list[Event] = field(default_factory=list)
    strings: dict[int, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    source: str = "live"
    file_aliases: dict[str, str] = field(default_factory=dict)

    def problem_counts(self) -> dict[str, int]:
        """Number of problems of each kind."""
        counts: dict[str, int] = {}
        for problem in self.problems:
            counts[problem.kind] = counts.get(problem.kind, 0) + 1
        return counts

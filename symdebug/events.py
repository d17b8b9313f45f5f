"""The one typed event stream that live capture and trace files both produce.

An :class:`Event` is one structured-trace record as torch emitted it (its name, its metadata
body, its payload and its compile context), plus, for live capture only, a snapshot of the
compiler context taken while the event fired.  Everything downstream (the builder, the
processors) reads only this stream, so a session built from a ``TORCH_TRACE`` log and one
captured in-process go through the same code.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]

#: Names of the synthetic events that live capture adds to torch's own stream.
GRAPH_INPUTS = "symdebug:graph_inputs"
#: Body keys that hold stacks (lists of frame dicts).
_STACK_KEYS = ("stack", "user_stack", "framework_stack")
#: Keys of ``compilation_metrics`` that no fact reads: torch's whole Inductor, functorch and
#: compiler configurations (about 29 KB per compile), dropped as the event is read.
UNREAD_METRICS = ("inductor_config", "functorch_config", "compiler_config")


#: Where a slimmed ``compilation_metrics`` keeps the source lists of ``compiler_config``
#: (``static_sources``, ``dynamic_sources``, ``unbacked_sources``, ``dynamic_values``): the
#: one part of that config a fact reads.
DECLARED_SOURCES = "symdebug:declared_sources"
_SOURCE_LISTS = ('"static_sources"', '"dynamic_sources"', '"unbacked_sources"', '"dynamic_values"')


def _declared_sources(config: Any) -> dict[str, str]:
    """The non-empty source lists of torch's ``compiler_config`` text (JSON)."""
    if not isinstance(config, str) or not any(key in config for key in _SOURCE_LISTS):
        return {}
    try:
        parsed = json.loads(config)
    except ValueError:
        return {}
    keys = [key.strip('"') for key in _SOURCE_LISTS]
    lists = {key: parsed.get(key) for key in keys} if isinstance(parsed, dict) else {}
    return {key: str(value) for key, value in lists.items() if value}


def slim_body(name: str, body: dict[str, Any]) -> dict[str, Any]:
    """An event's body without what no fact reads; Dynamo's config text shared, not copied.

    A 1 GB log of 7,000 compiles holds 200 MB of configuration text otherwise.
    """
    if name != "compilation_metrics":
        return body
    # A new dict: live, torch's own record goes on to its other handlers (TORCH_TRACE).
    slim = {key: value for key, value in body.items() if key not in UNREAD_METRICS}
    declared = _declared_sources(body.get("compiler_config"))
    if declared:
        slim[DECLARED_SOURCES] = declared
    config = slim.get("dynamo_config")
    if isinstance(config, str):
        slim["dynamo_config"] = sys.intern(config)  # the same text for every compile of a run
    return slim


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
    #: (torch's compile id, the notebook cells' names of files as it started), in start
    #: order: a cell run again with the same text keeps its file under a new number.
    cell_names_at_start: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    #: One dict per distinct stack frame: guards' stacks repeat the same frames thousands
    #: of times, and a log's events would otherwise hold a copy of each.
    frames: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)
    #: One list per distinct stack, by the identities of its (shared) frames: a frame's
    #: recompiles log the same stacks again, and a reader of stacks can then remember each.
    stacks: dict[tuple[int, ...], list[Any]] = field(default_factory=dict, repr=False)
    #: Where a live capture saw dims marked (``symdebug.model.types.MarkSite``), in order.
    marks: list[Any] = field(default_factory=list)
    #: The version of the torch running a live capture (``torch.__version__``); a log's
    #: is read from its own records.
    torch_version: str = ""

    def share_frames(self, body: dict[str, Any]) -> None:
        """Replace ``body``'s stacks by the stream's one copy of each, frames shared too.

        A stack is keyed by its frames' identities: each frame is the stream's own, or held
        by the stack kept, so no other object can take its identity.
        """
        for key in _STACK_KEYS:
            stack = body.get(key)
            if isinstance(stack, list):
                frames = [self._frame(frame) for frame in stack]
                body[key] = self.stacks.setdefault(tuple(map(id, frames)), frames)

    def _frame(self, frame: Any) -> Any:
        if not isinstance(frame, dict):
            return frame
        try:
            key = tuple(frame.items())
            return self.frames.setdefault(key, frame)
        except TypeError:  # an unhashable value in a damaged log: kept as it is
            return frame

    def drop_oldest_compiles(self, keep: int) -> int:
        """Drop the events of the oldest compiles beyond ``keep``; return how many went.

        Events are cut after the last event of a finished compile (its metrics), so every
        compile kept has all its events but for ones logged after another compile's end.
        """
        ends = [i for i, event in enumerate(self.events) if event.name == "compilation_metrics"]
        dropped = len(ends) - keep
        if dropped <= 0:
            return 0
        cut = ends[dropped - 1] + 1
        starts = sum(1 for event in self.events[:cut] if _first_start(event))
        del self.events[:cut]
        del self.cell_names_at_start[:starts]  # one per first start, as recorded
        return dropped

    def problem_counts(self) -> dict[str, int]:
        """Number of problems of each kind."""
        counts: dict[str, int] = {}
        for problem in self.problems:
            counts[problem.kind] = counts.get(problem.kind, 0) + 1
        return counts


def _first_start(event: Event) -> bool:
    """A compile's first ``dynamo_start`` (not a restart's)."""
    return event.name == "dynamo_start" and event.key is not None and event.key.attempt == 0

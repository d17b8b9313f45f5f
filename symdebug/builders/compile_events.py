"""Group a stream's events by compile, keeping only the last attempt after restarts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from symdebug.events import CompileKey, Event
from symdebug.model.values import CompileId, CompileKind

Identity = tuple[int | None, int, int]

#: Kept across restarts: emitted once per compile before the first attempt, or (a graph
#: break's reason) only by the attempt that the break restarted.
ONCE_PER_COMPILE = frozenset({"artifact:recompile_reasons", "artifact:dynamo_graph_break_reason"})


@dataclass(slots=True)
class CompileEvents:
    """The events of one compile's last attempt, by name, in order."""

    key: CompileKey
    events: list[Event] = field(default_factory=list)
    rank: int | None = None
    restarts: int = 0
    generation: int = 0
    kind: CompileKind = "compile"
    _by_name: dict[str, list[Event]] | None = None
    _indexed: int = -1
    #: The id and what it was made of (a restart or an export's renumbering changes the key).
    _id: tuple[CompileKey, int, CompileKind, CompileId] | None = None

    @property
    def compile_id(self) -> CompileId:
        """Torch's id; after a ``torch._dynamo.reset()`` reused it, ``@<generation>`` follows."""
        made = self._id
        if made is None or made[0] is not self.key or made[1:3] != (self.generation, self.kind):
            made = self._id = (self.key, self.generation, self.kind, self._make_id())
        return made[3]

    def _make_id(self) -> CompileId:
        if self.kind == "export":
            return CompileId.export(self.key.frame_compile_id)
        return CompileId(self.key.compile_id).in_generation(self.generation)

    def named(self, name: str) -> list[Event]:
        """All events with this name, in order (read once the group is complete)."""
        return self.index().get(name, [])

    def index(self) -> dict[str, list[Event]]:
        """The events by name, made anew only where events came that it does not hold."""
        by_name = self._by_name
        if by_name is None or self._indexed != len(self.events):
            by_name = self._by_name = defaultdict(list)
            for event in self.events:
                by_name[event.name].append(event)
            self._indexed = len(self.events)
        return by_name

    def add(self, event: Event, by_name: dict[str, list[Event]]) -> None:
        """Append ``event``; ``by_name`` is :meth:`index`'s answer, kept current here."""
        self.events.append(event)
        by_name[event.name].append(event)
        self._indexed += 1

    def last(self, name: str) -> Event | None:
        """The last event with this name, if any."""
        found = self.named(name)
        return found[-1] if found else None


#: Events that open a compile: after a reset, one of these for a finished id is a new compile.
OPENING = frozenset({"dynamo_start", "artifact:recompile_reasons"})


class _Grouping:
    """What :func:`group_by_compile` knows so far: its groups, generations, finished ids."""

    def __init__(self) -> None:
        self.groups: dict[tuple[Identity, int], CompileEvents] = {}
        self.generation: dict[Identity, int] = {}
        self.finished: set[Identity] = set()

    def group_of(self, event: Event, key: CompileKey) -> tuple[CompileEvents | None, Identity]:
        """The group ``event`` joins (None: an earlier attempt's), and its compile's identity."""
        identity = (key.compiled_autograd_id, key.frame_id, key.frame_compile_id)
        if event.name in OPENING and key.attempt == 0 and identity in self.finished:
            self.generation[identity] = self.generation.get(identity, 0) + 1
            self.finished.discard(identity)
        gen = self.generation.get(identity, 0) if self.generation else 0
        group = self.groups.get((identity, gen))
        if group is None:
            made = CompileEvents(key, rank=event.rank, generation=gen)
            group = self.groups[(identity, gen)] = made
        elif not _same_attempt(group, key):
            return None, identity
        return group, identity


def group_by_compile(events: Iterable[Event]) -> list[CompileEvents]:
    """Compiles in first-seen order; a restart (higher attempt) replaces earlier attempts.

    ``torch._dynamo.reset()`` restarts compile ids, so an id seen finished (its
    ``compilation_metrics`` logged) that opens again is a new compile: a new generation.
    An event with the very key object of the one before joins its group without a lookup
    (the reader makes one key object per compile attempt); one that may open a compile
    never does.
    """
    grouping, exports = _Grouping(), ExportGroups()
    last_key: CompileKey | None = None
    for event in events:
        key = event.key
        if key is None:
            exports.add(event)
            continue
        if key is not last_key or event.name in OPENING:
            found, identity = grouping.group_of(event, key)
            if found is None:
                last_key = None
                continue
            group, last_key = found, key
            by_name = group.index()  # filled as events come: no second pass over them
        group.add(event, by_name)
        if event.name == "compilation_metrics":
            grouping.finished.add(identity)
    return [*grouping.groups.values(), *exports.done()]


#: Keyless events that an export logs (a non-strict ``torch.export`` runs outside Dynamo,
#: so torch's trace context names no compile); the ``export_*`` ones are the live capture's.
EXPORT_EVENTS = frozenset(
    {
        "export_start",
        "describe_storage",
        "describe_tensor",
        "describe_source",
        "create_symbol",
        "create_unbacked_symbol",
        "expression_created",
        "guard_added",
        "guard_added_fast",
        "symbolic_shape_specialization",
        "propagate_real_tensors",
        "propagate_real_tensors_provenance",
        "exported_program",
        "export_end",
    }
)
#: An export group with none of these (only tensor descriptions) is no export.
_EXPORT_FACTS = frozenset(
    {"create_symbol", "create_unbacked_symbol", "guard_added", "guard_added_fast"}
    | {"symbolic_shape_specialization", "exported_program", "export_start"}
)
_EXPORT_CLOSING = frozenset({"exported_program", "export_end"})


class ExportGroups:
    """Keyless events of exports, one synthetic group (``export/<n>``) per export call.

    The live capture brackets each call with ``export_start``/``export_end``; in a log,
    ``exported_program`` ends a successful one and the next keyless event opens another.
    """

    def __init__(self) -> None:
        self.groups: list[CompileEvents] = []
        self._open: CompileEvents | None = None

    def add(self, event: Event) -> None:
        """File one keyless event under the export it belongs to (others are dropped)."""
        if event.name not in EXPORT_EVENTS:
            return
        if self._open is None or event.name == "export_start" or self._next_export(event):
            key = CompileKey(-1, len(self.groups))
            self._open = CompileEvents(key, rank=event.rank, kind="export")
            self.groups.append(self._open)
        self._open.events.append(event)
        bracketed = self._open.events[0].name == "export_start"
        if event.name == "export_end" or (event.name in _EXPORT_CLOSING and not bracketed):
            self._open = None

    def _next_export(self, event: Event) -> bool:
        """In a log, inputs described again after tracing began open the next export."""
        if self._open is None or not event.name.startswith("describe_"):
            return False
        last = self._open.events[-1].name
        bracketed = self._open.events[0].name == "export_start"
        return not bracketed and not last.startswith("describe_")

    def done(self) -> list[CompileEvents]:
        """The exports that logged a symbol, guard, specialization or program."""
        kept = [g for g in self.groups if any(e.name in _EXPORT_FACTS for e in g.events)]
        for number, group in enumerate(kept):
            group.key = CompileKey(-1, number)
        return kept


def _same_attempt(group: CompileEvents, key: CompileKey) -> bool:
    """Keep the last attempt: a higher one replaces what the group held."""
    if key.attempt > group.key.attempt:
        group.events = [e for e in group.events if e.name in ONCE_PER_COMPILE]
        group._by_name = None
        group.restarts += 1
        group.key = key
    return key.attempt == group.key.attempt

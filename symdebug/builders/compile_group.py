"""One compile's events, as ``group_by_compile`` groups them (an export's: ``kind == "export"``)."""

from __future__ import annotations

from collections import defaultdict
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

"""Group a stream's events by compile, keeping only the last attempt after restarts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from symdebug.events import CompileKey, Event
from symdebug.model.values import CompileId

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
    _by_name: dict[str, list[Event]] | None = None
    _indexed: int = -1

    @property
    def compile_id(self) -> CompileId:
        """Torch's id; after a ``torch._dynamo.reset()`` reused it, ``@<generation>`` follows."""
        return CompileId(self.key.compile_id).in_generation(self.generation)

    def named(self, name: str) -> list[Event]:
        """All events with this name, in order (read once the group is complete)."""
        if self._by_name is None or self._indexed != len(self.events):
            self._by_name = defaultdict(list)
            for event in self.events:
                self._by_name[event.name].append(event)
            self._indexed = len(self.events)
        return self._by_name.get(name, [])

    def last(self, name: str) -> Event | None:
        """The last event with this name, if any."""
        found = self.named(name)
        return found[-1] if found else None


#: Events that open a compile: after a reset, one of these for a finished id is a new compile.
OPENING = frozenset({"dynamo_start", "artifact:recompile_reasons"})


def group_by_compile(events: Iterable[Event]) -> list[CompileEvents]:
    """Compiles in first-seen order; a restart (higher attempt) replaces earlier attempts.

    ``torch._dynamo.reset()`` restarts compile ids, so an id seen finished (its
    ``compilation_metrics`` logged) that opens again is a new compile: a new generation.
    """
    groups: dict[tuple[Identity, int], CompileEvents] = {}
    generation: dict[Identity, int] = {}
    finished: set[Identity] = set()
    for event in events:
        key = event.key
        if key is None:
            continue
        identity = (key.compiled_autograd_id, key.frame_id, key.frame_compile_id)
        if identity in finished and event.name in OPENING and key.attempt == 0:
            generation[identity] = generation.get(identity, 0) + 1
            finished.discard(identity)
        gen = generation.get(identity, 0)
        group = groups.get((identity, gen))
        if group is None:
            group = groups[(identity, gen)] = CompileEvents(key, rank=event.rank, generation=gen)
        elif not _same_attempt(group, key):
            continue
        group.events.append(event)
        if event.name == "compilation_metrics":
            finished.add(identity)
    return list(groups.values())


def _same_attempt(group: CompileEvents, key: CompileKey) -> bool:
    """Keep the last attempt: a higher one replaces what the group held."""
    if key.attempt > group.key.attempt:
        group.events = [e for e in group.events if e.name in ONCE_PER_COMPILE]
        group._by_name = None
        group.restarts += 1
        group.key = key
    return key.attempt == group.key.attempt

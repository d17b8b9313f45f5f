"""Group a stream's events by compile, keeping only the last attempt after restarts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from symdebug.events import CompileKey, Event

Identity = tuple[int | None, int, int]

#: Emitted once per compile, before the first attempt: kept across restarts.
ONCE_PER_COMPILE = frozenset({"artifact:recompile_reasons"})


@dataclass(slots=True)
class CompileEvents:
    """The events of one compile's last attempt, by name, in order."""

    key: CompileKey
    events: list[Event] = field(default_factory=list)
    rank: int | None = None
    restarts: int = 0
    generation: int = 0

    @property
    def compile_id(self) -> str:
        """Torch's id; after a ``torch._dynamo.reset()`` reused it, ``@<generation>`` follows."""
        return self.key.compile_id + (f"@{self.generation}" if self.generation else "")

    def named(self, name: str) -> list[Event]:
        """All events with this name, in order."""
        return [event for event in self.events if event.name == name]

    def last(self, name: str) -> Event | None:
        """The last event with this name, if any."""
        for event in reversed(self.events):
            if event.name == name:
                return event
        return None


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
        group.restarts += 1
        group.key = key
    return key.attempt == group.key.attempt

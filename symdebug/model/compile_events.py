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

    def named(self, name: str) -> list[Event]:
        """All events with this name, in order."""
        return [event for event in self.events if event.name == name]

    def last(self, name: str) -> Event | None:
        """The last event with this name, if any."""
        for event in reversed(self.events):
            if event.name == name:
                return event
        return None


def group_by_compile(events: Iterable[Event]) -> list[CompileEvents]:
    """Compiles in first-seen order; a restart (higher attempt) replaces earlier attempts."""
    groups: dict[Identity, CompileEvents] = {}
    for event in events:
        key = event.key
        if key is None:
            continue
        identity = (key.compiled_autograd_id, key.frame_id, key.frame_compile_id)
        group = groups.get(identity)
        if group is None:
            group = groups[identity] = CompileEvents(key, rank=event.rank)
        elif key.attempt > group.key.attempt:
            group.events = [e for e in group.events if e.name in ONCE_PER_COMPILE]
            group.restarts += 1
            group.key = key
        elif key.attempt < group.key.attempt:
            continue
        group.events.append(event)
    return list(groups.values())

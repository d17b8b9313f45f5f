"""Group a stream's events by compile, keeping only the last attempt after restarts."""

from __future__ import annotations

from collections.abc import Iterable

from symdebug._torch.releases.sections import Release
from symdebug.builders.compile_group import ONCE_PER_COMPILE, CompileEvents, Identity
from symdebug.builders.export_groups import ExportGroups
from symdebug.events import CompileKey, Event

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


def group_by_compile(
    events: Iterable[Event], release: Release | None = None
) -> list[CompileEvents]:
    """Compiles in first-seen order; a restart (higher attempt) replaces earlier attempts.

    ``torch._dynamo.reset()`` restarts compile ids, so an id seen finished (its
    ``compilation_metrics`` logged) that opens again is a new compile: a new generation.
    An event with the very key object of the one before joins its group without a lookup
    (the reader makes one key object per compile attempt); one that may open a compile
    never does.  Exports: :mod:`symdebug.builders.export_groups` (where ``release`` runs a
    non-strict export inside a compile context, its keyed events are the export's).
    """
    in_context = release is not None and release.records.export_in_compile_context
    grouping, exports = _Grouping(), ExportGroups(in_compile_context=in_context)
    last_key: CompileKey | None = None
    previous: CompileEvents | None = None  # the group of the event before, if keyed
    for event in events:
        key = event.key
        if key is None:
            exports.add(event, previous)
            previous = None
            continue
        if key is not last_key or event.name in OPENING:
            found, identity = grouping.group_of(event, key)
            if found is None:
                last_key = previous = None
                continue
            group, last_key = found, key
            exports.saw(group)
            by_name = group.index()  # filled as events come: no second pass over them
        group.add(event, by_name)
        previous = group
        if event.name == "compilation_metrics":
            grouping.finished.add(identity)
    return exports.adopted([*grouping.groups.values()])


def _same_attempt(group: CompileEvents, key: CompileKey) -> bool:
    """Keep the last attempt: a higher one replaces what the group held."""
    if key.attempt > group.key.attempt:
        group.events = [e for e in group.events if e.name in ONCE_PER_COMPILE]
        group._by_name = None
        group.restarts += 1
        group.key = key
    return key.attempt == group.key.attempt

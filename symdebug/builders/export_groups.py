"""Exports among a stream's events: one group (``export/<n>``) per ``torch.export`` call.

A non-strict export runs outside Dynamo: torch 2.13 and 2.14 log its records with no compile
id.  The live capture brackets each call with ``export_start``/``export_end``; in a log,
``exported_program`` ends a successful export and the next keyless event opens another.
Torch 2.15 runs it inside a Dynamo compile context: its records carry a compile id (and take
a frame id) that no ``dynamo_start`` opened and no graph of Dynamo's closes.  Such a group is
the export's: merged into the bracket the live capture made around it, or an export of its
own, with the keyless records that follow it (its ``exported_program``).
"""

from __future__ import annotations

from symdebug.builders.compile_group import CompileEvents
from symdebug.events import CompileKey, Event

#: Keyless events that an export logs (a non-strict ``torch.export`` runs outside Dynamo,
#: so torch's trace context names no compile); the ``export_*`` ones are the live capture's.
EXPORT_EVENTS = frozenset(
    {
        "export_start",
        "export",  # draft_export's own record
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
#: What only a compile of Dynamo's has (a strict export's trace too, in torch 2.15).
_COMPILE_ONLY = ("dynamo_start", "dynamo_output_graph")


class ExportGroups:
    """The exports of a stream, as its events come (``in_compile_context``: torch 2.15)."""

    def __init__(self, *, in_compile_context: bool = False) -> None:
        self.groups: list[CompileEvents] = []
        self._open: CompileEvents | None = None
        self._in_context = in_compile_context
        #: Each group's place in the stream (keyed and keyless alike), by ``id``.
        self._order: dict[int, int] = {}
        #: A keyed group's events that came while a live bracket was open: that export's.
        self._bracket_of: dict[int, CompileEvents] = {}

    def saw(self, group: CompileEvents) -> None:
        """A keyed group got an event (torch 2.15: it may be an export's)."""
        if self._in_context and id(group) not in self._order:
            self._order[id(group)] = len(self._order)
            if self._open is not None and _bracketed(self._open):
                self._bracket_of[id(group)] = self._open

    def add(self, event: Event, previous: CompileEvents | None = None) -> None:
        """File one keyless event; ``previous``: the keyed group of the event before it."""
        if event.name not in EXPORT_EVENTS:
            return
        keyed = self._closing(previous)
        if keyed is not None:
            keyed.add(event, keyed.index())
            return
        if self._open is None or event.name == "export_start" or self._next_export(event):
            self._open = CompileEvents(CompileKey(-1, len(self.groups)), rank=event.rank)
            self._open.kind = "export"
            self._order[id(self._open)] = len(self._order)
            self.groups.append(self._open)
        self._open.events.append(event)
        closing = event.name in _EXPORT_CLOSING and not _bracketed(self._open)
        if event.name == "export_end" or closing:
            self._open = None

    def _closing(self, previous: CompileEvents | None) -> CompileEvents | None:
        """A 2.15 export's keyed group, when a log's keyless record comes right after it."""
        if not self._in_context or previous is None or id(previous) in self._bracket_of:
            return None
        return None if any(previous.named(name) for name in _COMPILE_ONLY) else previous

    def _next_export(self, event: Event) -> bool:
        """In a log, inputs described again after tracing began open the next export."""
        if self._open is None or not event.name.startswith("describe_"):
            return False
        last = self._open.events[-1].name
        return not _bracketed(self._open) and not last.startswith("describe_")

    def adopted(self, compiles: list[CompileEvents]) -> list[CompileEvents]:
        """The compiles, then the exports: a 2.15 export's keyed group made the export's."""
        kept = []
        for group in compiles:
            if not self._in_context or not _is_export(group):
                kept.append(group)
            elif (bracket := self._bracket_of.get(id(group))) is not None:
                bracket.events[1:1] = group.events  # after the capture's ``export_start``
                bracket._by_name = None
            else:
                group.kind = "export"
                self.groups.append(group)
        return [*kept, *self.done()]

    def done(self) -> list[CompileEvents]:
        """The exports that logged a symbol, guard, specialization or program, in order."""
        kept = [g for g in self.groups if any(e.name in _EXPORT_FACTS for e in g.events)]
        kept.sort(key=lambda group: self._order.get(id(group), 0))
        for number, group in enumerate(kept):
            group.key = CompileKey(-1, number)
        return kept


def _bracketed(group: CompileEvents) -> bool:
    return group.events[0].name == "export_start"


def _is_export(group: CompileEvents) -> bool:
    """A keyed group no ``dynamo_start`` opened and no Dynamo graph closed, with export facts.

    A restarted group is Dynamo's (an export never restarts), though its last attempt kept no
    ``dynamo_start``: a frame whose first op breaks the graph, recompiled with a symbol.
    """
    if group.restarts or any(group.named(name) for name in _COMPILE_ONLY):
        return False
    return any(group.named(name) for name in _EXPORT_FACTS)

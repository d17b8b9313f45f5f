"""The facts of a growing stream, rebuilt after each cell without rebuilding every compile.

A live session's stream only grows.  Each compile's own facts (:func:`build_compile_facts`)
depend on its events alone, so they are built once and kept as built: a pass changes no
fact (it returns its writes, :mod:`symdebug.processors.writes`), and each rebuild runs the
passes over shallow copies of the objects whose fields they declare they write (the
runner refuses any other write).  A rebuild builds the compiles that are new or grew, and
runs the passes over all of them: the same facts as a full :func:`build`, for the work of
the new events, the copies and the passes.  Facts a rebuild returned are never changed by
the next one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any

from symdebug.builders.compile_events import group_by_compile
from symdebug.builders.compile_group import CompileEvents
from symdebug.events import EventStream
from symdebug.model.types import Facts, MarkSite, Specialization
from symdebug.pipeline import (
    LIVE,
    MAX_PROBLEM_EXAMPLES,
    build_or_count,
    collector_paused,
    enrich,
    stream_facts,
)
from symdebug.processors.cells import cell_names
from symdebug.processors.pass_table import Pass, passes, written_lists
from symdebug.torchtext.source_text import sources_read
from symdebug.torchtext.stacks import StackReader

#: The fact lists one compile's build fills.
_LISTS = (
    "compiles",
    "guards",
    "symbols",
    "specializations",
    "fx_nodes",
    "kernels",
    "graph_code",
    "graph_breaks",
)


def _built(group: CompileEvents, reader: StackReader) -> Facts:
    """One compile's own facts, as built (kept, never changed)."""
    facts = Facts()
    build_or_count(facts, group, reader)
    return facts


class IncrementalBuilder:
    """Builds a growing stream's facts; each compile's own facts are built only once."""

    def __init__(self) -> None:
        self._fragments: dict[tuple[Any, ...], Facts] = {}

    def build(self, stream: EventStream, *, capture_errors: int = 0) -> Facts:
        """The facts :func:`symdebug.pipeline.build` gives for ``stream``."""
        steps = passes(cell_names(stream))
        with collector_paused(), sources_read(stream.source == LIVE):
            facts = self._facts_of_compiles(stream, capture_errors, _copied_lists(steps))
            return enrich(facts, steps)

    def _facts_of_compiles(
        self, stream: EventStream, capture_errors: int, written: frozenset[str]
    ) -> Facts:
        facts, release = stream_facts(stream, capture_errors=capture_errors)
        reader = StackReader(stream.strings)
        kept: dict[tuple[Any, ...], Facts] = {}
        for group in group_by_compile(stream.events, release):
            # A group that gained an event (a backward compiled later) is built again.
            key = (group.compile_id, group.kind, len(group.events), id(group.events[-1]))
            fragment = self._fragments.get(key)
            kept[key] = fragment if fragment is not None else _built(group, reader)
            _merge(facts, kept[key], written)
        self._fragments = kept
        facts.rank = next((c.rank for c in facts.compiles if c.rank is not None), None)
        facts.marks = [MarkSite.from_dict(site) for site in stream.marks]
        return facts


def _merge(facts: Facts, part: Facts, written: frozenset[str]) -> None:
    """Add one compile's facts: copies of the objects of the ``written`` lists."""
    copies: dict[int, Any] = {}  # by the id of the object copied
    for name in _LISTS:
        items = getattr(part, name)
        if name in written and items:
            cls: type = type(items[0])  # a class is hashable (mypy reads type[Any] as not)
            copied = list(map(_copier(cls), items))
            copies.update(zip(map(id, items), copied, strict=True))
            items = _holding_copies(copied, copies) if name == "specializations" else copied
        getattr(facts, name).extend(items)
    for kind, count in part.problems.items():
        facts.problems[kind] = facts.problems.get(kind, 0) + count
    room = MAX_PROBLEM_EXAMPLES - len(facts.problem_examples)
    facts.problem_examples += part.problem_examples[: max(room, 0)]


def _copied_lists(steps: tuple[Pass, ...]) -> frozenset[str]:
    """The lists whose objects a rebuild copies: those the passes write fields of.

    A specialization holds guards of its compile: when the guards are copied, so is it, to
    hold their copies (:func:`_holding_copies`).
    """
    written = written_lists(steps)
    return (written | {"specializations"}) if "guards" in written else written


@cache
def _copier(cls: type[Any]) -> Callable[[Any], Any]:
    """A function that copies an object of the slots dataclass ``cls``, field by field.

    Generated, as dataclasses generate ``__init__``: ``copy.copy`` (through
    ``__reduce_ex__``) takes three times as long, and a rebuild copies every guard.
    """
    names = [f.name for f in fields(cls)]
    assigned = "".join(f"\n    new.{name} = item.{name}" for name in names)
    source = f"def copied(item):\n    new = new_object(cls){assigned}\n    return new"
    namespace: dict[str, Any] = {"new_object": object.__new__, "cls": cls}
    exec(source, namespace)  # noqa: S102 - the text holds the dataclass's field names only
    copied: Callable[[Any], Any] = namespace["copied"]
    return copied


def _holding_copies(specs: list[Specialization], copies: dict[int, Any]) -> list[Specialization]:
    """Copied specializations, each holding the copies of its guards (copied before them)."""
    for spec in specs:
        spec.guards = [copies.get(id(guard), guard) for guard in spec.guards]
    return specs

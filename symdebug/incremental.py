"""The facts of a growing stream, rebuilt after each cell without rebuilding every compile.

A live session's stream only grows.  Each compile's own facts (:func:`build_compile_facts`)
depend on its events alone, so they are built once and kept, with the values of every
field a pass writes (:data:`symdebug.pipeline.PASSES` declares them) as they were before
any pass ran.  A rebuild restores those values, builds the compiles that are new or grew,
and runs the passes over all of them: the same facts as a full :func:`build`, for the
work of the new events plus the passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symdebug.builders.compile_events import CompileEvents, group_by_compile
from symdebug.events import EventStream
from symdebug.model.types import Facts, MarkSite
from symdebug.pipeline import (
    LIVE,
    MAX_PROBLEM_EXAMPLES,
    PASSES,
    build_or_count,
    collector_paused,
    enrich,
    passes,
)
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
#: What the cell-naming pass writes (it declares them as ``file_names``).
_FILE_NAMES = (
    "guards.user_stack symbols.user_frame specializations.user_frame fx_nodes.filename"
    " compiles.filename graph_breaks.user_stack graph_breaks.user_frame"
)


def _written() -> dict[str, tuple[str, ...]]:
    """Per fact list, the fields some pass writes."""
    writes = {w for step in PASSES for w in step.writes} | set(_FILE_NAMES.split())
    return {
        name: tuple(sorted(w.split(".", 1)[1] for w in writes if w.startswith(name + ".")))
        for name in _LISTS
    }


_WRITTEN = _written()


def _copied(value: Any) -> Any:
    """A value as kept: lists and dicts copied (a pass may fill them in place)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


@dataclass(slots=True)
class _Fragment:
    """One compile's own facts, and the written fields' values before any pass."""

    facts: Facts
    pristine: list[tuple[Any, str, Any]] = field(default_factory=list)

    @classmethod
    def built(cls, group: CompileEvents, reader: StackReader) -> _Fragment:
        facts = Facts()
        build_or_count(facts, group, reader)
        fragment = cls(facts)
        for name, fields in _WRITTEN.items():
            for item in getattr(facts, name):
                fragment.pristine += [(item, f, _copied(getattr(item, f))) for f in fields]
        return fragment

    def restored(self) -> None:
        """Undo what the passes of the last build wrote: the facts as first built."""
        for item, name, value in self.pristine:
            setattr(item, name, _copied(value))


class IncrementalBuilder:
    """Builds a growing stream's facts; each compile's own facts are built only once."""

    def __init__(self) -> None:
        self._fragments: dict[tuple[Any, ...], _Fragment] = {}

    def build(self, stream: EventStream, *, capture_errors: int = 0) -> Facts:
        """The facts :func:`symdebug.pipeline.build` gives for ``stream``."""
        with collector_paused(), sources_read(stream.source == LIVE):
            facts = self._facts_of_compiles(stream, capture_errors)
            return enrich(facts, passes(stream.file_aliases))

    def _facts_of_compiles(self, stream: EventStream, capture_errors: int) -> Facts:
        facts = Facts(source=stream.source, capture_errors=capture_errors)
        facts.problems = stream.problem_counts()
        facts.problem_examples = [
            f"{p.kind} at {p.where}: {p.detail}" for p in stream.problems[:MAX_PROBLEM_EXAMPLES]
        ]
        reader = StackReader(stream.strings)
        kept: dict[tuple[Any, ...], _Fragment] = {}
        for group in group_by_compile(stream.events):
            # A group that gained an event (a backward compiled later) is built again.
            key = (group.compile_id, group.kind, len(group.events), id(group.events[-1]))
            fragment = self._fragments.get(key)
            if fragment is None:
                fragment = _Fragment.built(group, reader)
            else:
                fragment.restored()
            kept[key] = fragment
            _merge(facts, fragment.facts)
        self._fragments = kept
        facts.rank = next((c.rank for c in facts.compiles if c.rank is not None), None)
        facts.marks = [MarkSite.from_dict(site) for site in stream.marks]
        return facts


def _merge(facts: Facts, part: Facts) -> None:
    for name in _LISTS:
        getattr(facts, name).extend(getattr(part, name))
    for kind, count in part.problems.items():
        facts.problems[kind] = facts.problems.get(kind, 0) + count
    room = MAX_PROBLEM_EXAMPLES - len(facts.problem_examples)
    facts.problem_examples += part.problem_examples[: max(room, 0)]

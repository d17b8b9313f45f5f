"""Show notebook cells as cells: ``Cell [3]``, not the kernel's temporary file name.

A cell run again with the same text compiles to the same file, under a new number: each
compile is named with the numbers the cells had when it started (a second Run All leaves
the first run's definitions as ``Cell [3]``), and the newest numbers name the rest.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from symdebug.events import EventStream
from symdebug.model.types import Callee, Compile, Facts, Frame, Recompile, ShapeCheck
from symdebug.model.values import CompileId
from symdebug.processors.writes import Writes

Aliases = Mapping[str, str]


@dataclass(frozen=True, slots=True)
class CellNames:
    """The cells' names of files: the newest, and those each compile started under."""

    latest: Aliases = field(default_factory=dict)
    by_compile: Mapping[str, Aliases] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.latest) or bool(self.by_compile)

    def of(self, compile_id: str) -> Aliases:
        """The names in force when compile ``compile_id`` started (else the newest)."""
        return self.by_compile.get(compile_id, self.latest)


def cell_names(stream: EventStream) -> CellNames:
    """A live stream's cell names; the n-th start of a torch id is its generation n."""
    by_compile: dict[str, Aliases] = {}
    starts: dict[str, int] = {}
    for torch_id, aliases in stream.cell_names_at_start:
        generation = starts.get(torch_id, 0)
        starts[torch_id] = generation + 1
        by_compile[CompileId(torch_id).in_generation(generation)] = aliases
    return CellNames(stream.file_aliases, by_compile)


def _renamed(frame: Frame, aliases: Aliases) -> Frame:
    """The frame under its alias (a new one: frames are shared between facts)."""
    alias = aliases.get(frame.filename)
    return frame if alias is None else dataclasses.replace(frame, filename=alias)


def _renamed_or_none(frame: Frame | None, aliases: Aliases) -> Frame | None:
    return None if frame is None else _renamed(frame, aliases)


def _stack(frames: list[Frame], aliases: Aliases) -> list[Frame]:
    return [_renamed(frame, aliases) for frame in frames]


def in_text(text: str, aliases: Aliases) -> str:
    """Torch's text with each cell file's path (or the end of it torch prints) as the cell.

    Torch shortens a path to its last characters (``mp/ipykernel_7/301.py:3 in f``); the
    file's own name, a hash of the cell's text, picks the cell.
    """
    for filename, alias in aliases.items():
        base = filename.rsplit("/", 1)[-1]
        if base and base in text:
            text = _path_ending(base).sub(_cell_of(filename, alias), text)
    return text


@cache  # one pattern per cell file, not one per text renamed
def _path_ending(base: str) -> re.Pattern[str]:
    """A path that ends with file ``base`` before ``:<line>``."""
    return re.compile(r"[^\s#()]*" + re.escape(base) + r"(?=:\d)")


def _cell_of(filename: str, alias: str) -> Callable[[re.Match[str]], str]:
    """The cell's name for a path that is ``filename`` or its end; else the path as it is."""

    def replace(match: re.Match[str]) -> str:
        return alias if filename.endswith(match[0]) else match[0]

    return replace


def alias_files(facts: Facts, names: CellNames) -> Writes:
    """Rename every frame, node and compile whose file is a cell, as it was named then."""
    writes = Writes()
    if not names:
        return writes
    on = names.of
    guards, symbols, specs = facts.guards, facts.symbols, facts.specializations
    writes.set("user_stack", guards, [_stack(g.user_stack, on(g.compile_id)) for g in guards])
    writes.set(
        "user_frame", symbols, [_renamed_or_none(s.user_frame, on(s.compile_id)) for s in symbols]
    )
    writes.set(
        "user_frame", specs, [_renamed_or_none(s.user_frame, on(s.compile_id)) for s in specs]
    )
    locs = [{k: in_text(v, on(s.compile_id)) for k, v in s.range_locs.items()} for s in symbols]
    writes.set("range_locs", symbols, locs)  # torch's lines of each bound of the range
    nodes, breaks = facts.fx_nodes, facts.graph_breaks
    writes.set("filename", nodes, [on(n.compile_id).get(n.filename, n.filename) for n in nodes])
    writes.set("user_stack", breaks, [_stack(b.user_stack, on(b.compile_id)) for b in breaks])
    writes.set(
        "user_frame", breaks, [_renamed_or_none(b.user_frame, on(b.compile_id)) for b in breaks]
    )
    _alias_recompiles(writes, facts.recompiles, names)
    return _alias_compiles(writes, facts.compiles, names)


def _alias_recompiles(writes: Writes, recompiles: list[Recompile], names: CellNames) -> None:
    """A recompile's line, and torch's reasons, which print the line's file."""
    on = names.of
    frames = [_renamed_or_none(r.user_frame, on(r.compile_id)) for r in recompiles]
    writes.set("user_frame", recompiles, frames)
    reasons = [[in_text(t, on(r.compile_id)) for t in r.reasons] for r in recompiles]
    writes.set("reasons", recompiles, reasons)


def _alias_compiles(writes: Writes, compiles: list[Compile], names: CellNames) -> Writes:
    """Where each frame was defined, and the line that called it."""
    on = names.of
    writes.set(
        "filename", compiles, [on(c.compile_id).get(c.filename, c.filename) for c in compiles]
    )
    writes.set("caller", compiles, [_renamed_or_none(c.caller, on(c.compile_id)) for c in compiles])
    reasons = [[in_text(t, on(c.compile_id)) for t in c.recompile_reasons] for c in compiles]
    writes.set("recompile_reasons", compiles, reasons)
    writes.set("callee", compiles, [_callee(c, on(c.compile_id)) for c in compiles])
    graphs = [[in_text(g, on(c.compile_id)) for g in c.graphs] for c in compiles]
    writes.set("graphs", compiles, graphs)  # Dynamo's graph code: ``# File: <path>:4 in f``
    for name in ("shape_checks", "value_checks"):  # each check's note: torch's user line
        checks = [_checks(getattr(c, name), on(c.compile_id)) for c in compiles]
        writes.set(name, compiles, checks)
    return writes


def _checks(checks: list[ShapeCheck], aliases: Aliases) -> list[ShapeCheck]:
    """The checks with their notes' cell names (new ones where a name changed: shared)."""
    renamed = [(check, in_text(check.note, aliases)) for check in checks]
    return [c if note == c.note else dataclasses.replace(c, note=note) for c, note in renamed]


def _callee(compile_: Compile, aliases: Aliases) -> Callee | None:
    callee = compile_.callee
    if callee is None or callee.filename not in aliases:
        return callee
    return dataclasses.replace(callee, filename=aliases[callee.filename])

"""Show notebook cells as cells: ``Cell [3]``, not the kernel's temporary file name."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from symdebug.model.types import Facts, Frame
from symdebug.processors.writes import Writes


def _renamed(frame: Frame, aliases: Mapping[str, str]) -> Frame:
    """The frame under its alias (a new one: frames are shared between facts)."""
    alias = aliases.get(frame.filename)
    return frame if alias is None else dataclasses.replace(frame, filename=alias)


def _renamed_or_none(frame: Frame | None, aliases: Mapping[str, str]) -> Frame | None:
    return None if frame is None else _renamed(frame, aliases)


def alias_files(facts: Facts, aliases: Mapping[str, str]) -> Writes:
    """Rename every frame, node and compile whose file is a known alias."""
    writes = Writes()
    if not aliases:
        return writes
    guards, symbols, specs = facts.guards, facts.symbols, facts.specializations
    writes.set("user_stack", guards, [_stack(g.user_stack, aliases) for g in guards])
    writes.set("user_frame", symbols, [_renamed_or_none(s.user_frame, aliases) for s in symbols])
    writes.set("user_frame", specs, [_renamed_or_none(s.user_frame, aliases) for s in specs])
    nodes, compiles, breaks = facts.fx_nodes, facts.compiles, facts.graph_breaks
    writes.set("filename", nodes, [aliases.get(n.filename, n.filename) for n in nodes])
    writes.set("filename", compiles, [aliases.get(c.filename, c.filename) for c in compiles])
    writes.set("user_stack", breaks, [_stack(b.user_stack, aliases) for b in breaks])
    return writes.set(
        "user_frame", breaks, [_renamed_or_none(b.user_frame, aliases) for b in breaks]
    )


def _stack(frames: list[Frame], aliases: Mapping[str, str]) -> list[Frame]:
    return [_renamed(frame, aliases) for frame in frames]

"""Show notebook cells as cells: ``Cell [3]``, not the kernel's temporary file name."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from symdebug.model.types import Facts, Frame


def _renamed(frame: Frame, aliases: Mapping[str, str]) -> Frame:
    """The frame under its alias (a new one: frames are shared between facts)."""
    alias = aliases.get(frame.filename)
    return frame if alias is None else dataclasses.replace(frame, filename=alias)


def _renamed_or_none(frame: Frame | None, aliases: Mapping[str, str]) -> Frame | None:
    return None if frame is None else _renamed(frame, aliases)


def alias_files(facts: Facts, aliases: Mapping[str, str]) -> None:
    """Rename every frame, node and compile whose file is a known alias."""
    if not aliases:
        return
    for guard in facts.guards:
        guard.user_stack = [_renamed(frame, aliases) for frame in guard.user_stack]
    for symbol in facts.symbols:
        symbol.user_frame = _renamed_or_none(symbol.user_frame, aliases)
    for spec in facts.specializations:
        spec.user_frame = _renamed_or_none(spec.user_frame, aliases)
    for node in facts.fx_nodes:
        node.filename = aliases.get(node.filename, node.filename)
    for compile_ in facts.compiles:
        compile_.filename = aliases.get(compile_.filename, compile_.filename)
    for graph_break in facts.graph_breaks:
        graph_break.user_stack = [_renamed(frame, aliases) for frame in graph_break.user_stack]
        graph_break.user_frame = _renamed_or_none(graph_break.user_frame, aliases)

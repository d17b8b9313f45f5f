"""Symbols of one compile: from the live ShapeEnv, or from ``create_symbol`` events."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from symdebug.builders.compile_group import CompileEvents
from symdebug.builders.unbacked import describe_unbacked, is_unbacked, parse_range
from symdebug.events import SHAPE_ENV
from symdebug.model.types import Frame, Symbol
from symdebug.model.values import CompileId, Source
from symdebug.torchtext.guard_tree import GuardTree
from symdebug.torchtext.stacks import StackReader

_DUCK = re.compile(r"^(?P<new>.+?) == (?P<old>.+)$")
_PAST_DYNAMO = ("aot", "inductor")


def _user_frames(group: CompileEvents, reader: StackReader) -> dict[str, Frame]:
    """Where Dynamo created each symbol; a symbol AOT or Inductor created has no user line.

    Past Dynamo the user stack is Python's own: the program's call of the compiled
    function and FX's generated code (``<string>:1``), not a line the symbol came from.
    """
    frames: dict[str, Frame] = {}
    for event in group.named("create_symbol") + group.named("create_unbacked_symbol"):
        if reader.evidence(event.body.get("stack")).phase in _PAST_DYNAMO:
            continue  # (the evidence of a stack tail is remembered: recompiles repeat them)
        stack = reader.user_frames(event.body.get("user_stack"))
        if stack:
            frames.setdefault(str(event.body.get("symbol")), stack[-1])
    return frames


def _from_shape_env(env: Mapping[str, Any], compile_id: CompileId) -> list[Symbol]:
    symbols = []
    for name, info in env.get("symbols", {}).items():
        lower, upper = info.get("range_lower_loc") or {}, info.get("range_upper_loc") or {}
        locs = {"lower": lower.get("user") or "", "upper": upper.get("user") or ""}
        value_range = info.get("range")
        symbols.append(
            Symbol(
                name=name,
                sources=[Source(s) for s in info.get("sources", [])],
                compile_id=compile_id,
                hint=info.get("hint") if isinstance(info.get("hint"), int) else None,
                range=(value_range[0], value_range[1]) if value_range else None,
                range_locs={k: v for k, v in locs.items() if v},
            )
        )
    return symbols


def _from_events(group: CompileEvents, tree: GuardTree) -> list[Symbol]:
    by_name: dict[str, Symbol] = {}
    for event in group.named("create_symbol") + group.named("create_unbacked_symbol"):
        body = event.body
        name = str(body.get("symbol"))
        value = str(body.get("val", ""))
        source = body.get("source")
        by_name.setdefault(
            name,
            Symbol(
                name=name,
                sources=[Source(source)] if source else [],
                compile_id=group.compile_id,
                hint=int(value) if value.lstrip("-").isdigit() else None,
                range=parse_range(body.get("vr")),
            ),
        )
    _add_duck_sources(by_name, tree)
    return list(by_name.values())


def _add_duck_sources(by_name: dict[str, Symbol], tree: GuardTree) -> None:
    """Duck-sized reuse emits no event; the guard tree's equality names the extra source."""
    for line in tree.shape_lines:
        match = _DUCK.match(line.code) if "duck sizing" in line.note else None
        if match is None:
            continue
        for symbol in by_name.values():
            if match["old"] in symbol.sources and match["new"] not in symbol.sources:
                symbol.sources.append(Source(match["new"]))


def build_symbols(group: CompileEvents, tree: GuardTree, reader: StackReader) -> list[Symbol]:
    """Symbols of one compile with sources, hint, range and the user line that created them."""
    env = group.last(SHAPE_ENV)
    symbols = (
        _from_shape_env(env.body, group.compile_id)
        if env is not None
        else _from_events(group, tree)
    )
    describe_unbacked(symbols, group, tree, reader)
    frames = _user_frames(group, reader)
    for symbol in symbols:
        symbol.user_frame = frames.get(symbol.name)
        if is_unbacked(symbol.name):
            symbol.state = "unbacked"
        elif len(symbol.sources) > 1:
            symbol.state = "duck-sized"
    return symbols

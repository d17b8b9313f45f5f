"""Symbol facts that need the whole compile: guard sources, states, static dimensions."""

from __future__ import annotations

from symdebug.model.types import Facts, Symbol
from symdebug.model.values import Source, SymbolState

#: Specialization cause -> the state its source is in.
_STATE_OF_CAUSE: dict[str, SymbolState] = {
    "static_by_default": "static-by-default",
    "dynamic_false": "static-by-default",
}


def attach_guard_sources(facts: Facts) -> None:
    """Each guard's ``sources``: the first source of each of its symbols, aligned."""
    # By compile, then by name: no (compile, name) tuple is made per symbol of every guard.
    tables: dict[str, dict[str, Source]] = {}
    for symbol in facts.symbols:
        if symbol.sources:
            table = tables.get(symbol.compile_id)
            if table is None:
                table = tables[symbol.compile_id] = {}
            table[symbol.name] = symbol.sources[0]
    none: dict[str, Source] = {}
    for guard in facts.guards:
        table = tables.get(guard.compile_id, none)
        guard.sources = [src for sym in guard.symbols if (src := table.get(sym)) is not None]


def settle_symbol_states(facts: Facts) -> None:
    """Mark specialized symbols; add a constant entry per static dimension or int."""
    by_source = {(s.compile_id, src): s for s in facts.symbols for src in s.sources}
    for spec in facts.specializations:
        symbol = by_source.get((spec.compile_id, spec.source))
        if symbol is not None:
            symbol.state, symbol.cause = "specialized", spec.cause
            continue
        constant = Symbol(
            name=str(spec.value),
            sources=[spec.source],
            compile_id=spec.compile_id,
            hint=spec.value if isinstance(spec.value, int) else None,
            state=_STATE_OF_CAUSE.get(spec.cause, "specialized"),
            cause=spec.cause,
            user_frame=spec.user_frame,
        )
        facts.symbols.append(constant)
        by_source[(spec.compile_id, spec.source)] = constant
    for symbol in facts.symbols:
        if symbol.state == "duck-sized" and symbol.cause is None:
            symbol.cause = "duck_sizing"

"""Symbol facts that need the whole compile: guard sources, states, static dimensions."""

from __future__ import annotations

from symdebug.model.types import Facts, Symbol
from symdebug.model.values import SymbolState

#: Specialization cause -> the state its source is in.
_STATE_OF_CAUSE: dict[str, SymbolState] = {
    "static_by_default": "static-by-default",
    "dynamic_false": "static-by-default",
}


def attach_guard_sources(facts: Facts) -> None:
    """Each guard's ``sources``: the first source of each of its symbols, aligned."""
    sources = {(s.compile_id, s.name): s.sources[0] for s in facts.symbols if s.sources}
    for guard in facts.guards:
        found = [sources.get((guard.compile_id, symbol)) for symbol in guard.symbols]
        guard.sources = [source for source in found if source is not None]


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

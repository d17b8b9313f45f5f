"""Symbol facts that need the whole compile: guard sources, states, static dimensions."""

from __future__ import annotations

from symdebug.model.types import Facts, Specialization, Symbol
from symdebug.model.values import Cause, Source, SymbolState
from symdebug.processors.writes import Writes

#: Specialization cause -> the state its source is in.
_STATE_OF_CAUSE: dict[str, SymbolState] = {
    "static_by_default": "static-by-default",
    "dynamic_false": "static-by-default",
}


def attach_guard_sources(facts: Facts) -> Writes:
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
    sources = [
        [src for sym in guard.symbols if (src := table.get(sym)) is not None]
        for guard in facts.guards
        for table in (tables.get(guard.compile_id, none),)  # one look-up per guard
    ]
    return Writes().set("sources", facts.guards, sources)


def settle_symbol_states(facts: Facts) -> Writes:
    """Mark specialized symbols; add a constant entry per static dimension or int."""
    by_source = {(s.compile_id, src): s for s in facts.symbols for src in s.sources}
    specialized: dict[int, tuple[Symbol, Cause]] = {}  # by id: the last specialization's cause
    constants: list[Symbol] = []
    for spec in facts.specializations:
        symbol = by_source.get((spec.compile_id, spec.source))
        if symbol is None:
            constants.append(_constant(spec))
            by_source[(spec.compile_id, spec.source)] = constants[-1]
        else:
            specialized[id(symbol)] = (symbol, spec.cause)
    duck = [
        s
        for s in facts.symbols
        if s.state == "duck-sized" and s.cause is None and id(s) not in specialized
    ]
    changed = list(specialized.values())
    writes = Writes().put(facts, "symbols", [*facts.symbols, *constants])
    writes.rows(
        ("state", "cause"), [s for s, _ in changed], [("specialized", c) for _, c in changed]
    )
    return writes.set("cause", duck, ["duck_sizing"] * len(duck))


def _constant(spec: Specialization) -> Symbol:
    """The constant a specialization of a source no symbol holds stands for."""
    return Symbol(
        name=str(spec.value),
        sources=[spec.source],
        compile_id=spec.compile_id,
        hint=spec.value if isinstance(spec.value, int) else None,
        state=_STATE_OF_CAUSE.get(spec.cause, "specialized"),
        cause=spec.cause,
        user_frame=spec.user_frame,
    )

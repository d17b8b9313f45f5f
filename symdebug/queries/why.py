"""``why(source)``: the evidence chain for one input dimension or int."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from symdebug.model.reasons import strip_local_scope
from symdebug.model.types import Facts, Frame, Guard, Recompile, Symbol

if TYPE_CHECKING:
    import networkx as nx


@dataclass(slots=True)
class Explanation:
    """Why a source is dynamic or constant in its latest compile."""

    source: str
    state: str
    cause: str | None
    value: int | str | None
    compile_id: str
    guards: list[Guard] = field(default_factory=list)
    user_frame: Frame | None = None
    fixes: list[str] = field(default_factory=list)
    recompiles: list[Recompile] = field(default_factory=list)
    history: list[tuple[str, str, int | str | None]] = field(default_factory=list)
    symbol: str | None = None
    chains: dict[str, list[str]] = field(default_factory=dict)

    @property
    def fx_node(self) -> str | None:
        """The FX node of the first guard that has one."""
        return next((g.fx_node for g in self.guards if g.fx_node), None)

    @property
    def framework_frame(self) -> Frame | None:
        """The framework frame of the first guard."""
        return next((g.framework_frame for g in self.guards if g.framework_frame), None)

    def __str__(self) -> str:
        from symdebug.renderers.console import render_explanation

        return render_explanation(self)


def resolve_source(facts: Facts, name: str, dim: int | None = None) -> str:
    """Turn ``("x", 0)``, ``"x.size()[0]"`` or ``"L['x'].size()[0]"`` into a known source."""
    known = list(dict.fromkeys(src for symbol in facts.symbols for src in symbol.sources))
    wanted = f"{name}.size()[{dim}]" if dim is not None else name
    for candidate in (wanted, f"L['{name}'].size()[{dim}]" if dim is not None else f"L['{name}']"):
        if candidate in known:
            return candidate
    stripped = [src for src in known if strip_local_scope(src) == strip_local_scope(wanted)]
    if not stripped:
        suffix = f"['{name}'].size()[{dim}]" if dim is not None else f"['{name}']"
        stripped = [src for src in known if src.endswith(suffix)]
    if stripped:
        return stripped[0]
    listing = ", ".join(known[:20]) or "none (nothing was compiled)"
    raise KeyError(f"no input source matches {wanted!r}; known sources: {listing}")


def _in_compile_order(facts: Facts, source: str) -> list[Symbol]:
    order = {c.compile_id: index for index, c in enumerate(facts.compiles)}
    found = [s for s in facts.symbols if source in s.sources]
    return sorted(found, key=lambda s: order.get(s.compile_id, -1))


def _latest(facts: Facts, source: str) -> Symbol:
    return _in_compile_order(facts, source)[-1]


def _guards_for(facts: Facts, symbol: Symbol, source: str) -> list[Guard]:
    spec = next(
        (
            s
            for s in facts.specializations
            if s.compile_id == symbol.compile_id and s.source == source
        ),
        None,
    )
    if spec is not None and spec.guards:
        return spec.guards
    return [
        g
        for g in facts.guards
        if g.compile_id == symbol.compile_id
        and symbol.name in g.symbols
        and g.status == "installed"
    ]


def _recompiles_for(facts: Facts, source: str) -> list[Recompile]:
    wanted = strip_local_scope(source)
    return [r for r in facts.recompiles if any(strip_local_scope(s) == wanted for s in r.sources)]


def _fixes(symbol: Symbol, source: str, guards: list[Guard]) -> list[str]:
    from symdebug.processors.fixes import fix_for

    if symbol.state in ("dynamic", "unbacked"):
        return []
    return [fix_for(symbol.cause or "unknown", source, guards[0] if guards else None)]


def _user_frame(symbol: Symbol, guards: list[Guard]) -> Frame | None:
    from_guards = next((g.user_frame for g in guards if g.user_frame), None)
    if symbol.state == "specialized":
        return from_guards or symbol.user_frame
    return symbol.user_frame or from_guards


def _describe(graph: nx.MultiDiGraph, key: str) -> str:
    data = graph.nodes[key]
    kind = data.get("kind")
    if kind == "guard":
        return f"guard {data['expr']} [{data['cause']}]"
    if kind == "fx_node":
        return f"FX node {data['name']} ({data['target']})"
    if kind == "frame":
        return f"{data['filename']}:{data['lineno']}  {data.get('line', '')}".rstrip()
    if kind == "source":
        return f"specialized {data['source']}"
    return key


def recompile_chains(graph: nx.MultiDiGraph, recompiles: list[Recompile]) -> dict[str, list[str]]:
    """Per recompile: failed check -> guard -> its FX node (or none) -> its user line."""
    from symdebug.graph import path_to_user_line

    chains = {}
    for recompile in recompiles:
        path = path_to_user_line(graph, recompile.compile_id)[1:]
        steps = [_describe(graph, key) for key in path]
        if recompile.guard is not None and not any(k.startswith("fxnode:") for k in path):
            lines = recompile.guard.line_nodes
            steps.insert(
                1,
                "no FX node: Python control flow"
                + (f" (line makes {', '.join(lines)})" if lines else ""),
            )
        chains[recompile.compile_id] = steps
    return chains


def why(
    facts: Facts, name: str, dim: int | None = None, graph: nx.MultiDiGraph | None = None
) -> Explanation:
    """Explain a source in its latest compile, with its history across compiles."""
    source = resolve_source(facts, name, dim)
    symbol = _latest(facts, source)
    recompiles = _recompiles_for(facts, source)
    guards = _guards_for(facts, symbol, source)
    history: list[tuple[str, str, int | str | None]] = [
        (s.compile_id, s.state, s.hint) for s in _in_compile_order(facts, source)
    ]
    return Explanation(
        source=source,
        state=symbol.state,
        cause=symbol.cause,
        value=symbol.hint,
        compile_id=symbol.compile_id,
        guards=guards,
        user_frame=_user_frame(symbol, guards),
        fixes=_fixes(symbol, source, guards),
        recompiles=recompiles,
        history=history,
        symbol=symbol.name if symbol.state not in ("static-by-default",) else None,
        chains=recompile_chains(graph, recompiles) if graph is not None else {},
    )

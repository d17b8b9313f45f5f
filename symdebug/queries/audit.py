"""Dynamism audit: whether each compiled graph stayed as dynamic as asked.

Also: which operators made torch add guards or specialize, over the whole session.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from symdebug.model.types import Facts, Frame, Guard

DYNAMIC_STATES = ("dynamic", "duck-sized", "unbacked")


@dataclass(slots=True)
class GraphAudit:
    """One compile: its free symbols, and the dims asked dynamic that did not stay so."""

    compile_id: str
    name: str
    free_symbols: int
    dynamic_requested: bool
    marked_but_static: list[str] = field(default_factory=list)
    baked_in: list[str] = field(default_factory=list)

    @property
    def silently_static(self) -> bool:
        """Dynamism was asked for, yet the graph has no free symbol: the classic failure."""
        return self.dynamic_requested and self.free_symbols == 0


@dataclass(slots=True)
class OperatorRow:
    """One operator type across the session: guards it added and specializations it forced."""

    op: str
    guards: int = 0
    specializations: int = 0
    example: Frame | None = None


def _static_sources(facts: Facts, compile_id: str) -> set[str]:
    specialized = {s.source for s in facts.specializations if s.compile_id == compile_id}
    baked = {
        d.source for c in facts.graph_code if c.compile_id == compile_id for d in c.specialized_dims
    }
    return specialized | baked


def audit_graphs(facts: Facts) -> list[GraphAudit]:
    """One audit row per compile."""
    rows = []
    for compile_ in facts.compiles:
        cid = compile_.compile_id
        symbols = {
            s.name for s in facts.symbols if s.compile_id == cid and s.state in DYNAMIC_STATES
        }
        static = _static_sources(facts, cid)
        baked = [
            d.source for c in facts.graph_code if c.compile_id == cid for d in c.specialized_dims
        ]
        rows.append(
            GraphAudit(
                compile_id=cid,
                name=compile_.name,
                free_symbols=len(symbols),
                dynamic_requested=bool(compile_.dynamic or compile_.marked_dynamic),
                marked_but_static=[s for s in compile_.marked_dynamic if s in static],
                baked_in=list(dict.fromkeys(baked)),
            )
        )
    return rows


def operator_of(guard: Guard) -> str:
    """The operator a guard is charged to: its FX node's target, or where it came from."""
    if guard.fx_node_target:
        return guard.fx_node_target
    if guard.cause == "user_branch":
        return "python control flow"
    frame = guard.framework_frame
    return f"{guard.phase}: {frame.name}" if frame is not None else guard.phase


def operator_table(facts: Facts) -> list[OperatorRow]:
    """Per operator type: guards added, specializations forced, an example user line."""
    rows: dict[str, OperatorRow] = defaultdict(lambda: OperatorRow(""))
    for guard in facts.guards:
        row = rows[operator_of(guard)]
        row.op, row.guards = operator_of(guard), row.guards + 1
        row.example = row.example or guard.user_frame
    for spec in facts.specializations:
        if spec.guards:
            row = rows[operator_of(spec.guards[0])]
            row.op, row.specializations = operator_of(spec.guards[0]), row.specializations + 1
            row.example = row.example or spec.user_frame
    return sorted(rows.values(), key=lambda r: (-(r.guards + r.specializations), r.op))

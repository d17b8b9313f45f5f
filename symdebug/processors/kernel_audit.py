"""Explain each dimension the generated code baked in although Dynamo kept it symbolic."""

from __future__ import annotations

from dataclasses import replace

from symdebug.model.code_types import SpecializedDim
from symdebug.model.types import Facts, Guard
from symdebug.processors.writes import Writes


def _pinning_guard(dim: SpecializedDim, guards: list[Guard]) -> Guard | None:
    exact = (f"Eq({dim.symbol}, {dim.value})", f"Eq({dim.value}, {dim.symbol})")
    return next((g for g in guards if g.expr in exact), None)


def _explained(dim: SpecializedDim, guards: list[Guard]) -> SpecializedDim:
    """The dim with its pinning guard, the guard's cause and a sentence (a new object)."""
    guard = _pinning_guard(dim, guards)
    if guard is None:
        return replace(
            dim,
            explanation=f"{dim.symbol} became {dim.value} after Dynamo (no equality guard was "
            "logged: a replacement or a range collapsed to one value)",
        )
    frame = guard.framework_frame
    where = (
        f" at {frame.filename.split('/torch/')[-1]}:{frame.lineno} in {frame.name}" if frame else ""
    )
    explanation = f"{guard.expr} was added during {guard.phase}{where}"
    return replace(dim, guard=guard.id, cause=guard.cause, explanation=explanation)


def explain_specialized_dims(facts: Facts) -> Writes:
    """Attach the pinning guard, its cause and a sentence to every baked-in dimension."""
    # Only the compiles with a baked-in dimension need their guards.
    by_compile: dict[str, list[Guard]] = {
        code.compile_id: [] for code in facts.graph_code if code.specialized_dims
    }
    if not by_compile:
        return Writes()
    for guard in facts.guards:
        mine = by_compile.get(guard.compile_id)
        if mine is not None:
            mine.append(guard)
    codes = [code for code in facts.graph_code if code.specialized_dims]
    dims = [
        [_explained(dim, by_compile.get(code.compile_id, [])) for dim in code.specialized_dims]
        for code in codes
    ]
    return Writes().set("specialized_dims", codes, dims)

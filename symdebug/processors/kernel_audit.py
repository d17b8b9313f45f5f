"""Explain each dimension the generated code baked in although Dynamo kept it symbolic."""

from __future__ import annotations

from symdebug.model.code_types import SpecializedDim
from symdebug.model.types import Facts, Guard


def _pinning_guard(dim: SpecializedDim, guards: list[Guard]) -> Guard | None:
    exact = (f"Eq({dim.symbol}, {dim.value})", f"Eq({dim.value}, {dim.symbol})")
    return next((g for g in guards if g.expr in exact), None)


def _explain(dim: SpecializedDim, guards: list[Guard]) -> None:
    guard = _pinning_guard(dim, guards)
    if guard is None:
        dim.explanation = (
            f"{dim.symbol} became {dim.value} after Dynamo (no equality guard was logged: "
            "a replacement or a range collapsed to one value)"
        )
        return
    frame = guard.framework_frame
    where = (
        f" at {frame.filename.split('/torch/')[-1]}:{frame.lineno} in {frame.name}" if frame else ""
    )
    dim.guard, dim.cause = guard.id, guard.cause
    dim.explanation = f"{guard.expr} was added during {guard.phase}{where}"


def explain_specialized_dims(facts: Facts) -> None:
    """Attach the pinning guard, its cause and a sentence to every baked-in dimension."""
    # Only the compiles with a baked-in dimension need their guards.
    by_compile: dict[str, list[Guard]] = {
        code.compile_id: [] for code in facts.graph_code if code.specialized_dims
    }
    if not by_compile:
        return
    for guard in facts.guards:
        mine = by_compile.get(guard.compile_id)
        if mine is not None:
            mine.append(guard)
    for code in facts.graph_code:
        for dim in code.specialized_dims:
            _explain(dim, by_compile.get(code.compile_id, []))

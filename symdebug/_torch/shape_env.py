"""Serialize a ``ShapeEnv`` (torch/fx/experimental/symbolic_shapes.py) into plain data.

The ShapeEnv is the source of truth for the shape guards a compile installs: its
``guards`` list, the sources of each symbol, value ranges with the locations that set
their bounds, and replacements.  We copy what we need into JSON-able dicts so nothing
holds the compiler's objects alive.
"""

from __future__ import annotations

from typing import Any

from torch._guards import SLoc
from torch.fx.experimental.symbolic_shapes import ShapeEnv

from symdebug._torch.running import running_release


def _sloc_parts(sloc: SLoc | None) -> dict[str, str | None]:
    if sloc is None:
        return {"user": None, "framework": None}
    framework = sloc.framework_loc
    if framework is not None and not isinstance(framework, str):
        framework = f"{framework.filename}:{framework.lineno} in {framework.name}"
    return {"user": sloc.maybe_user_loc, "framework": framework}


def _bound(value: Any) -> int | str:
    # Bounds are sympy Integers or torch's int_oo / -int_oo, which int() cannot take.
    if isinstance(value, int) or getattr(value, "is_Integer", False):
        return int(value)
    return str(value)


def _symbols(env: ShapeEnv) -> dict[str, dict[str, Any]]:
    # `var_to_val` is deprecated in 2.13 (symbolic_shapes.py:5808); older torch lacks the new name.
    name = running_release().shape_env.backed_values
    backed = getattr(env, name) if hasattr(env, name) else env.var_to_val
    out: dict[str, dict[str, Any]] = {}
    for symbol, sources in env.var_to_sources.items():
        value_range = env.var_to_range.get(symbol)
        slocs = env.var_to_range_sloc.get(symbol)
        hint = backed.get(symbol)
        out[str(symbol)] = {
            "sources": [source.name for source in sources],
            "hint": _bound(hint) if hint is not None else None,
            "range": [_bound(value_range.lower), _bound(value_range.upper)]
            if value_range is not None
            else None,
            "range_lower_loc": _sloc_parts(slocs.lower if slocs else None),
            "range_upper_loc": _sloc_parts(slocs.upper if slocs else None),
        }
    return out


def _guards(env: ShapeEnv) -> list[dict[str, Any]]:
    seen: set[str] = set()
    guards = []
    for guard in env.guards:
        text = str(guard.expr)
        if text in seen:  # produce_guards dedupes the same way (`issued`)
            continue
        seen.add(text)
        guards.append({"expr": text, **_sloc_parts(guard.sloc)})
    return guards


def _runtime_asserts(env: ShapeEnv) -> list[str]:
    return [str(ra.expr) for asserts in env.deferred_runtime_asserts.values() for ra in asserts]


def snapshot_shape_env(env: ShapeEnv) -> dict[str, Any]:
    """Everything symdebug needs from a ShapeEnv, as JSON-able data."""
    replacement_slocs = getattr(env, "replacements_slocs", {})
    return {
        "guards": _guards(env),
        "symbols": _symbols(env),
        "replacements": {
            str(symbol): {"expr": str(expr), **_sloc_parts(replacement_slocs.get(symbol))}
            for symbol, expr in env.replacements.items()
        },
        "runtime_asserts": _runtime_asserts(env),
        "frozen": bool(env.frozen),
        "ignored_guards": int(env.counter.get(running_release().shape_env.ignored_counter, 0)),
    }

"""Suggest a concrete fix (code to write) for each guard, specialization and recompile."""

from __future__ import annotations

import re
from functools import lru_cache

from symdebug.model.index import FactIndex
from symdebug.model.reasons import parse_reason
from symdebug.model.types import Facts, Guard
from symdebug.model.values import Cause, Source
from symdebug.processors.bounds import parse_range
from symdebug.processors.explanations import explanation_guards


def _tensor_dim(source: Source | None) -> tuple[str, str]:
    if source is None or source.tensor is None:
        return ("x", "0")
    return (Source(source.tensor).stripped, str(source.dim))


def user_expression(guard: Guard) -> str:
    """The guard with each symbol written as the user's code would name it."""
    return _with_names(guard.expr, tuple(guard.symbols), tuple(guard.sources))


@lru_cache(maxsize=16384)
def _with_names(expr: str, symbols: tuple[str, ...], sources: tuple[Source, ...]) -> str:
    text = expr
    for symbol, source in zip(symbols, sources, strict=False):
        text = re.sub(rf"\b{symbol}\b", source.shape, text)
    return text


def _guard_check(guard: Guard | None) -> str:
    if guard is None or len(guard.sources) != len(guard.symbols):
        return "torch._check(<the size fact the code relies on>)"
    return f"torch._check({user_expression(guard)})"


#: Fix templates per cause; ``{check}``, ``{tensor}``, ``{dim}`` and ``{name}`` are filled in.
FIX_TEMPLATES = {
    "user_branch": "{check}, rewrite the branch without the size, or use torch.cond",
    "op_requirement": "{check} before the op, or reshape without a fixed factor",
    "int_specialized": (
        "{name} is used as a Python int (a loop count, an index), so each value compiles "
        "anew: pass it as a tensor and use tensor ops, or derive it from a tensor's size"
    ),
    "zero_one": (
        "torch._dynamo.decorators.mark_unbacked({tensor}, {dim}), or warm up with a size >= 2"
    ),
    "duck_sizing": (
        "torch.fx.experimental._config.use_duck_shape = False, or warm up with distinct sizes"
    ),
    "static_by_default": (
        "torch._dynamo.mark_dynamic({tensor}, {dim}) before the first call (or "
        "torch._dynamo.maybe_mark_dynamic({tensor}, {dim}), or torch.compile(dynamic=True))"
    ),
    "inductor": (
        "accept it, tune the Inductor config named in the framework frame, or report upstream"
    ),
    "backward": "as for inductor, for the backward graph; check the backward frame named here",
    "mark_dynamic_violated": (
        "remove the code path that fixes {name} (see the user line), "
        "or drop mark_dynamic({tensor}, {dim})"
    ),
}
STATIC_INT_FIX = (
    "ints are static on the first compile; automatic dynamic makes {name} dynamic after it "
    "changes once. To skip that recompile: torch.compile(..., dynamic=True)"
)
INT_ATTRIBUTE_FIX = (
    "torch._dynamo.config.allow_unspec_int_on_nn_module = True (nn.Module int attributes "
    "are constants by default), or keep {name} in a tensor buffer"
)
UNKNOWN_FIX = "no fix known: see the framework frame and report upstream if it is wrong"


def fix_for(cause: Cause, source: str | None = None, guard: Guard | None = None) -> str:
    """The code or setting that would keep ``source`` dynamic, for a given cause."""
    template = _template(cause, Source(source) if source else None)
    check = _guard_check(guard) if "{check}" in template else ""
    return _filled(template, Source(source) if source else None, check)


def _template(cause: Cause, source: Source | None) -> str:
    is_int = source is not None and ".size()" not in source
    if cause == "static_by_default" and is_int:
        return STATIC_INT_FIX
    if cause == "int_specialized" and is_int and source is not None and "." in source.stripped:
        return INT_ATTRIBUTE_FIX
    return FIX_TEMPLATES.get(cause, UNKNOWN_FIX)


@lru_cache(maxsize=16384)
def _filled(template: str, source: Source | None, check: str) -> str:
    tensor, dim = _tensor_dim(source)
    name = source.stripped if source is not None else "n"
    return template.format(check=check, tensor=tensor, dim=dim, name=name)


def _symbol_fixes(facts: Facts) -> None:
    """Symbols that are not dynamic: the fix for their first source."""
    index = FactIndex(facts)
    for symbol in facts.symbols:
        if symbol.state in ("dynamic", "unbacked") or not symbol.sources:
            continue
        source = symbol.sources[0]
        guards = explanation_guards(index, symbol, source)
        symbol.fix = fix_for(symbol.cause or "unknown", source, guards[0] if guards else None)


def suggest_fixes(facts: Facts) -> None:
    """Set ``fix`` on guards, specializations, symbols and recompiles."""
    _symbol_fixes(facts)
    for guard in facts.guards:
        guard.fix = fix_for(guard.cause, guard.sources[0] if guard.sources else None, guard)
    for spec in facts.specializations:
        spec.fix = fix_for(spec.cause, spec.source, spec.guards[0] if spec.guards else None)
    for recompile in facts.recompiles:
        source = recompile.specialization.source if recompile.specialization else None
        if source is None and recompile.guard is not None and recompile.guard.sources:
            source = recompile.guard.sources[0]
        if source is None and recompile.reasons:  # a bound no guard set (``2 <= x.size()[0]``)
            bounds = parse_range(parse_reason(recompile.reasons[0]).code)
            source = Source(bounds[0]) if bounds is not None else None
        recompile.fix = fix_for(recompile.cause, source, recompile.guard)

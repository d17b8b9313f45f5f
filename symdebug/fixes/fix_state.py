"""Fixes for recompiles no size explains: global state, floats, lowerings, a mark's range.

A tensor's metadata is :mod:`symdebug.fixes.fix_tensor_state`'s.

Each says what changed (from torch's check, :mod:`symdebug.torchtext.state_reasons`), that each
variant compiles once, and the change at the call site that keeps calls alike.  None claims
a recompile goes away: every variant still compiles once until the calls stop varying.
"""

from __future__ import annotations

import re

from symdebug.fixes.bounds import parse_range
from symdebug.fixes.fix_code import size_expression, user_name
from symdebug.fixes.fix_evidence import STATIC_BY_DEFAULT, Evidence
from symdebug.fixes.fix_settings import limit_fix
from symdebug.fixes.fix_tensor_state import caller_fix, changed_state
from symdebug.model.index import FactIndex
from symdebug.model.types import Fix, Recompile
from symdebug.torchtext.reasons import MARK_RANGE, parse_reason
from symdebug.torchtext.state_reasons import state_change, state_words

SPECIALIZE_FLOAT = "torch._dynamo.config.specialize_float"


#: The call-site code that makes each global state one for every call, and where it goes.
_STATE_CODE = {
    "grad_mode": (
        "with torch.no_grad():\n    ...",
        "around every call, where none needs gradients",
    ),
    "default_dtype": ("torch.set_default_dtype(torch.float32)", "once, before the first call"),
    "deterministic_algorithms": ("torch.use_deterministic_algorithms(True)", "once, first"),
}


def global_state_fixes(evidence: Evidence) -> list[Fix]:
    """Grad mode, autocast, default dtype ... changed between calls: each compiles once."""
    change = changed_state(evidence)
    states = change.states if change is not None else ()
    said = ", ".join(state_words(s) for s in states) or "torch's global state"
    values = f" ({evidence.detail})" if evidence.detail else ""
    why = f"{said} changed between calls{values}: each state compiles once (the graph bakes it "
    why += "in) and stays cached; call the compiled function under one state"
    code = _STATE_CODE.get(states[0]) if states else None
    compiled = re.search(r"default_dtype (\w+) ->", evidence.detail)
    if code is not None and states[0] == "default_dtype" and compiled is not None:
        code = (f"torch.set_default_dtype(torch.{compiled[1]})", code[1])
    if states and states[0].startswith("autocast("):
        device = states[0][len("autocast(") :].split(")", 1)[0]
        code = (f"with torch.autocast({device!r}):\n    ...", "around every call")
    if code is None:
        return [limit_fix(why + ". ")]
    return [Fix(code[0], "code", f"{code[1]}: {why}.")]


#: Torch's ``ScalarType`` numbers of the float dtypes a default dtype can be.
_SCALAR_TYPES = {5: "float16", 6: "float32", 7: "float64", 15: "bfloat16"}


def state_values(recompile: Recompile, index: FactIndex) -> str:
    """``grad_mode True -> False``: each changed state, as the two compiles recorded it."""
    change = state_change(recompile.reasons[0]) if recompile.reasons else None
    old = index.compile.get(recompile.failed_entry or "")
    new = index.compile.get(recompile.compile_id)
    if change is None or old is None or new is None:
        return ""
    known = [s for s in change.states if s in old.global_state and s in new.global_state]
    return ", ".join(
        f"{s} {_state_value(s, old.global_state)} -> {_state_value(s, new.global_state)}"
        for s in known
    )


def _state_value(state: str, states: dict[str, object]) -> str:
    value = states.get(state)
    if state == "default_dtype" and isinstance(value, int):
        return _SCALAR_TYPES.get(value, str(value))
    return str(value)


def is_float_check(expr: str) -> bool:
    """Whether a check is a float's value (``temperature == 0.7``)."""
    reason = parse_reason(expr) if expr else None
    return reason is not None and reason.kind == "equals" and reason.is_float


def float_fixes(evidence: Evidence) -> list[Fix]:
    """A float held constant: symbolic from the first compile, or a 0-d tensor."""
    reason = parse_reason(evidence.expr)
    name = user_name(evidence.source) if evidence.source is not None else None
    name = name or reason.source or "t"
    why = (
        f"floats are constants on the first compile ({name} == {reason.value}); automatic "
        f"dynamic makes {name} symbolic once it changes, so later values share a graph. "
    )
    settings = {SPECIALIZE_FLOAT: False, STATIC_BY_DEFAULT: False}
    symbolic = Fix(
        f"{STATIC_BY_DEFAULT} = False",
        "setting",
        why + "With every float and size symbolic from the first compile, the first change "
        "compiles nothing (Dynamo's dynamic_sources names no float). Costs: general kernels.",
        settings,
    )
    tensor = caller_fix(
        f"{name} = torch.tensor({name})",
        why + "A 0-d tensor is an input, not a constant: one graph serves every value.",
    )
    return [symbolic, tensor]


def inductor_fixes(evidence: Evidence) -> list[Fix]:
    """Inductor's lowering needs the value: name it; the limit bounds the variants."""
    lowering = evidence.detail or "an operator"
    named = size_expression(evidence.source) if evidence.source is not None else None
    what = named or "the size"
    why = (
        f"Inductor's lowering of {lowering} needs {what} as a number (it guards on the value), "
        "so each value compiles once and no mark keeps it symbolic; pass few sizes (resize or "
        "pad to one), or let each compile: "
    )
    return [limit_fix(why)]


def mark_range_fixes(evidence: Evidence) -> list[Fix]:
    """A value outside the user's ``mark_dynamic(min=, max=)`` range: widen the range."""
    bounds = _range_bounds(evidence.expr)
    if evidence.source is None or bounds is None:
        return []
    name, dim = user_name(evidence.source.tensor or "") or "x", evidence.source.dim or 0
    low, high = bounds
    value = int(evidence.detail) if evidence.detail.lstrip("-").isdigit() else None
    code = f"torch._dynamo.maybe_mark_dynamic({name}, {dim})"  # no range: any size
    if value is not None:
        code = f"torch._dynamo.mark_dynamic({name}, {dim}, min={min(low, value)}, "
        code += f"max={max(high, value)})"
    why = (
        f"{name}.shape[{dim}] was marked dynamic in [{low}, {high}] "
        f"(mark_dynamic({name}, {dim}, min={low}, max={high})) and this call had "
        f"{value if value is not None else 'a size outside it'}: a size outside the mark's range "
        "compiles anew (and raises where the call's tensor carries the mark). Widen the range "
        "to every size the calls pass, or mark it without one."
    )
    if MARK_RANGE.search(evidence.expr):  # torch 2.15 compares the range a call declares
        why = (
            f"{name}.shape[{dim}] was compiled for calls marked with the range [{low}, {high}] "
            "and this call's tensor declared another: from torch 2.15 a different declared "
            "range compiles anew. Mark every call with one range, wide enough for all of them."
        )
    return [Fix(code, "code", f"instead of the mark: {why}")]


def range_value(recompile: Recompile, index: FactIndex) -> str:
    """The size the recompiling call had for the recompile's input (``""`` if unknown)."""
    compile_ = index.compile.get(recompile.compile_id)
    if compile_ is None or not recompile.sources:
        return ""
    wanted = recompile.sources[0]
    seen: list[object] = [d.value for d in compile_.inputs if d.source == wanted]
    seen += [s.hint for s in index.symbols_of(compile_.compile_id) if wanted in s.sources]
    return str(next((v for v in seen if isinstance(v, int)), ""))


def _range_bounds(expr: str) -> tuple[int, int] | None:
    """A range check's bounds; or the range a mark declared (``_DimRange``, torch 2.15)."""
    declared = MARK_RANGE.search(expr)
    if declared is not None and declared["min"] != "None" and declared["max"] != "None":
        return int(declared["min"]), int(declared["max"])
    parsed = parse_range(expr)
    if parsed is None or parsed[1] is None or parsed[2] is None:
        return None
    return parsed[1], parsed[2]

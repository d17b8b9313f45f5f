"""Fixes for a tensor unlike the compile's: dtype, layout, requires_grad, device, keys.

Each says what changed (from torch's check, :mod:`symdebug.torchtext.state_reasons`), that each
variant compiles once, and the assignment "in the caller" that makes every call pass the
same; ``fix_plan`` replays that assignment as the call's argument.
"""

from __future__ import annotations

from symdebug.fixes.fix_code import user_name
from symdebug.fixes.fix_evidence import Evidence
from symdebug.model.types import Fix
from symdebug.torchtext.state_reasons import StateChange, state_change

_ONCE = "each {what} compiles once (a graph is built for one {what})"


def changed_state(evidence: Evidence) -> StateChange | None:
    """What torch's check (the evidence's ``expr``) found changed."""
    return state_change(evidence.expr) if evidence.expr else None


def _name(evidence: Evidence, change: StateChange | None) -> str:
    named = user_name(evidence.source) if evidence.source is not None else None
    return named or (change.tensor if change is not None and change.tensor else "x")


def caller_fix(code: str, why: str) -> Fix:
    """An assignment "in the caller": ``fix_plan`` replays it as the call's argument."""
    return Fix(code, "code", f"in the caller, before the compiled call: {why}")


def dtype_fixes(evidence: Evidence) -> list[Fix]:
    """``x``'s dtype changed: cast at the call site."""
    change = changed_state(evidence)
    name, was = _name(evidence, change), change.before if change else "float32"
    now = change.after if change else "another dtype"
    why = f"{name}'s dtype changed from {was} to {now}: {_ONCE.format(what='dtype')}; cast at "
    why += f"the call site so every call passes {was}. Costs: a copy where {name} was {now}."
    return [caller_fix(f"{name} = {name}.to(torch.{was})", why)]


def strides_fixes(evidence: Evidence) -> list[Fix]:
    """Another memory layout (a transposed view, ``channels_last``): make it one."""
    name = _name(evidence, None)
    why = (
        f"{name}'s strides changed (another memory layout: a transposed or sliced view, or "
        f"channels_last): {_ONCE.format(what='layout')}; make the layout one at the call "
        "site. Costs: a copy when the tensor had the other layout."
    )
    return [caller_fix(f"{name} = {name}.contiguous()", why)]


def requires_grad_fixes(evidence: Evidence) -> list[Fix]:
    """``requires_grad`` changed: two graphs at most; detach where no gradient is needed."""
    change = changed_state(evidence)
    name, was = _name(evidence, change), change.before if change else "?"
    why = (
        f"{name}.requires_grad was {was} when compiled and is not now: each setting compiles "
        "once (autograd needs another graph), two at most. Where no gradient of "
        f"{name} is needed, detach it so every call passes the same."
    )
    return [caller_fix(f"{name} = {name}.detach()", why)]


def device_fixes(evidence: Evidence) -> list[Fix]:
    """Another device: each compiles once; move the input where the compile saw it."""
    change = changed_state(evidence)
    name, was = _name(evidence, change), change.before if change else "cpu"
    now = change.after if change else "another device"
    why = f"{name} moved from {was} to {now}: {_ONCE.format(what='device')}; pass it on {was}."
    return [caller_fix(f"{name} = {name}.to({was!r})", why)]


def dispatch_keys_fixes(evidence: Evidence) -> list[Fix]:
    """Other dispatch keys (inference mode, a subclass): make inputs alike."""
    name = _name(evidence, changed_state(evidence))
    why = (
        f"{name}'s dispatch keys changed (a tensor made under torch.inference_mode(), a tensor "
        f"subclass, another backend): {_ONCE.format(what='set of keys')}; make {name} the same "
        "way every call (a clone outside inference mode is an ordinary tensor)."
    )
    return [caller_fix(f"{name} = {name}.clone()", why)]

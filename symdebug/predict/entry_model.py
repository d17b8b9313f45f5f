"""What a cache entry checks, rebuilt from the facts of its compile.

Mirrors Dynamo's guards for shapes: each tensor's rank and static dims (``TENSOR_MATCH``),
specialized ints (``EQUALS_MATCH``), and the installed shape checks (duck-sizing
equalities, range bounds, ShapeEnv guards) exactly as the guard tree prints them; the
checks on other values (:mod:`symdebug.predict.value_checks`) follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from symdebug.fixes.bounds import bound_guard, parse_range
from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Guard, Specialization
from symdebug.predict.arguments import receiver_of
from symdebug.predict.check import Check
from symdebug.predict.check_eval import (
    Evaluator,
    bounded_one,
    compile_check,
    compile_scalar_check,
    equals_column,
    equals_one,
)
from symdebug.predict.tensor_checks import global_state_checks, tensor_checks
from symdebug.predict.value_checks import identity_check, value_checks
from symdebug.processors.recompiles import guard_for_reason
from symdebug.torchtext.own_code import library_of
from symdebug.torchtext.reasons import Reason, parse_reason


@dataclass(slots=True)
class EntryModel:
    """All checks of one compile (one cache entry), in the order Dynamo runs them."""

    compile_id: str
    checks: list[Check] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)


def _rank_checks(compile_: Compile) -> list[Check]:
    """Each tensor's rank: from its sizes, or (a 0-d tensor has none) from its strides."""
    ranks: dict[str, int] = {}
    for dim in compile_.inputs:
        if ".size()[" in dim.source:
            base = dim.source.rsplit(".size()[", 1)[0]
            ranks[base] = ranks.get(base, 0) + 1
    for tensor in compile_.tensor_checks:
        ranks.setdefault(str(tensor.source), len(tensor.strides))
    return [
        Check(
            "ndim",
            f"{base}.dim() == {rank}",
            [f"ndim:{base}"],
            equals_column(f"ndim:{base}", rank),
            evaluate_one=equals_one(f"ndim:{base}", rank),
        )
        for base, rank in ranks.items()
    ]


def _static_checks(compile_: Compile, specs: dict[str, Specialization]) -> list[Check]:
    checks = []
    for dim in compile_.inputs:
        if dim.symbolic:
            continue
        spec = specs.get(dim.source)
        kind = "static_dim" if ".size()[" in dim.source else "int_equals"
        check = Check(
            kind,
            f"{dim.source} == {dim.value}",
            [dim.source],
            equals_column(dim.source, dim.value),
            evaluate_one=equals_one(dim.source, dim.value),
        )
        check.specialization, check.cause = spec, spec.cause if spec else "unknown"
        checks.append(check)
    return checks


def _range_checks(code: str, kind: str, guards: list[Guard]) -> list[Check] | None:
    """``lo <= src <= hi`` as two checks, each with the cause of its own bound.

    The middle can be an expression (Inductor's ``s0*s1 <= 4096`` prints as
    ``L['x'].size()[1]*L['x'].size()[0] <= 4096``): it is evaluated like any shape check.
    """
    parsed = parse_range(code)
    if parsed is None:
        return None
    source, lower, upper = parsed
    try:
        value, sources = compile_check(source)
        value_one = compile_scalar_check(source)
    except SyntaxError:
        return None
    checks = []
    for bound, is_lower in ((lower, True), (upper, False)):
        if bound is None:
            continue
        guard = bound_guard(guards, source, bound, lower=is_lower)
        guard = guard or _expression_guard(guards, sources, bound)
        text = f"{bound} <= {source}" if is_lower else f"{source} <= {bound}"
        cause = guard.cause if guard else "unknown"
        if is_lower and kind == "zero_one" and bound == 2:
            cause, guard = "zero_one", None
        evaluate = _at_least(value, bound) if is_lower else _at_most(value, bound)
        one = bounded_one(value_one, bound, lower=is_lower)
        checks.append(Check("range", text, sources, evaluate, guard, cause=cause, evaluate_one=one))
    return checks


def _expression_guard(guards: list[Guard], sources: list[str], bound: int) -> Guard | None:
    """The guard that bounds an expression (``s27*s77 <= 4096``): on all its sources."""
    wanted = set(sources)
    for guard in guards:
        names = set(guard.sources) | {s.stripped for s in guard.sources}
        if (
            len(wanted) > 1
            and wanted <= names
            and re.search(rf"(?<![\d.]){bound}(?!\d)", guard.expr)
        ):
            return guard
    return None


def _at_least(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: np.asarray(value(values)) >= bound


def _at_most(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: np.asarray(value(values)) <= bound


def _shape_checks(compile_: Compile, guards: list[Guard], unparsed: list[str]) -> list[Check]:
    checks = []
    for shape_check in compile_.shape_checks:
        reason = parse_reason(f"{shape_check.code}  # {shape_check.note}")
        ranges = _range_checks(shape_check.code, reason.kind, guards)
        if ranges is not None:
            checks += [_with_reason_guard(check, reason, guards) for check in ranges]
            continue
        identity = identity_check(shape_check.code)
        if identity is not None:
            checks.append(identity)
            continue
        try:
            evaluate, sources = compile_check(shape_check.code)
            one = compile_scalar_check(shape_check.code)
        except SyntaxError:
            unparsed.append(shape_check.code)
            continue
        guard = guard_for_reason(reason, guards)
        kind = "duck_sizing" if reason.kind == "duck_sizing" else "shape_guard"
        cause = guard.cause if guard else ("duck_sizing" if kind == "duck_sizing" else "unknown")
        checks.append(
            Check(
                kind,
                shape_check.code,
                sources,
                evaluate,
                guard,
                cause=cause,
                evaluate_one=one,
                read_in=reason.user_file,
            )
        )
    return checks


def _with_reason_guard(check: Check, reason: Reason, guards: list[Guard]) -> Check:
    """A bound on an expression names no single source: find its guard by torch's note."""
    if check.guard is None and check.cause == "unknown":
        check.guard = guard_for_reason(reason, guards)
        check.cause = check.guard.cause if check.guard else "unknown"
    return check


def entry_model(index: FactIndex, compile_: Compile) -> EntryModel:
    """The checks of one compiled entry."""
    cid = compile_.compile_id
    specs: dict[str, Specialization] = {s.source: s for s in index.specializations_of(cid)}
    guards = [g for g in index.guards_of(cid) if g.status == "installed"]
    model = EntryModel(cid)
    model.checks = _rank_checks(compile_) + _static_checks(compile_, specs)
    model.checks += _shape_checks(compile_, guards, model.unparsed)
    model.checks += value_checks(compile_, model.unparsed)
    model.checks += tensor_checks(compile_) + global_state_checks(compile_)
    defined_in = compile_.callee.filename if compile_.callee else None
    library = library_of(defined_in or compile_.filename) not in (None, "torch")
    receiver = receiver_of(compile_)
    for check in model.checks:
        check.library_frame, check.receiver = library, receiver
    return model

"""Every input that was a constant in some compile: what an overspecialization hunt tests.

Read from each compile's inputs: a size, int or float that was not a symbol there, with
the specialization that made it one (its cause and line) where there was one.  A cause that
names the user's code (a branch, an op that needs the value) is evidence the code needs
the constant; the others (the default, a mark) are what a replay can try to avoid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symdebug.fixes.fix_code import size_expression, user_name
from symdebug.model.hunt_types import ConstantKind
from symdebug.model.types import (
    Compile,
    Facts,
    Frame,
    Guard,
    InputDim,
    SourceExplanation,
    Specialization,
)
from symdebug.model.values import Cause, Source

#: Causes in which the user's code (or an op it calls) needs one value.
FORCED_BY_CODE = frozenset({"user_branch", "op_requirement", "int_specialized", "length"})


@dataclass(frozen=True)
class Constant:
    """One input a compile held constant, with how, and the compile that did."""

    source: Source
    user_name: str
    kind: ConstantKind
    why_constant: str
    cause: Cause | None
    user_frame: Frame | None
    compile_: Compile | None
    value: int | str | None


def _kind(dim: InputDim) -> ConstantKind:
    if dim.source.is_size:
        return "size"
    return "float" if isinstance(dim.value, float) or "." in str(dim.value) else "int"


def _why(dim: InputDim, compile_: Compile, spec: Specialization | None) -> str:
    if dim.source in compile_.marked_static:
        return "mark_static"
    if spec is not None:
        return str(spec.cause)
    return "dynamic_false" if compile_.automatic_dynamic is False else "static_by_default"


def _user_name(source: Source, explained: SourceExplanation | None) -> str:
    spelled = size_expression(source) if source.is_size else user_name(source)
    return (explained.user_name if explained else "") or spelled or str(source)


def _constant(
    dim: InputDim,
    compile_: Compile,
    of_compile: list[Specialization],
    explained: SourceExplanation | None,
) -> Constant:
    """``of_compile``: the compile's specializations."""
    spec = next((s for s in of_compile if s.source == dim.source), None)
    why = _why(dim, compile_, spec)
    cause, frame = _forcing(spec, of_compile) if spec is not None else (None, None)
    name = _user_name(dim.source, explained)
    return Constant(dim.source, name, _kind(dim), why, cause, frame, compile_, dim.value)


#: The user's own code asking for the one value (not an operator relating it to another).
PINNED_BY_CODE = ("int_specialized", "user_branch", "length")


def _forcing(spec: Specialization, specs: list[Specialization]) -> tuple[Cause, Frame | None]:
    """The check that held the input constant: the user's code asking for a value.

    An operator's check (``x @ w``) may only tie the size to another symbol
    (``Eq(s27, s15)``); then what pinned that symbol (``range(x.shape[1])``, on the other
    input's spec of the same compile) held both.  ``specs``: the compile's.
    """
    if spec.cause in PINNED_BY_CODE:
        return spec.cause, spec.user_frame
    tied = {symbol for guard in spec.guards for symbol in guard.symbols}
    for other in (o for o in specs if o is not spec and tied):
        pin = next((g for g in other.guards if _pins(g) and tied & set(g.symbols)), None)
        if pin is not None:
            return pin.cause, pin.user_frame
    return spec.cause, spec.user_frame


def _pins(guard: Guard) -> bool:
    return guard.cause in PINNED_BY_CODE and guard.user_frame is not None


def forced_constant(facts: Facts, source: Source) -> Constant | None:
    """The source's first specialization that the code forced (``range(n)``), as a constant.

    A replay's int the code pinned after making it a symbol has no constant input dim.
    """
    spec = next(
        (s for s in facts.specializations if s.source == source and s.cause in FORCED_BY_CODE),
        None,
    )
    if spec is None:
        return None
    compile_ = next((c for c in facts.compiles if c.compile_id == spec.compile_id), None)
    kind: ConstantKind = "size" if source.is_size else "int"
    name, cause = _user_name(source, None), spec.cause
    return Constant(source, name, kind, cause, cause, spec.user_frame, compile_, spec.value)


def varied(facts: Facts, source: Source) -> bool:
    """Whether the input took more than one value over the run's compiles (or was a symbol).

    One that never varied cost no compile: a hunt has nothing to measure of it.
    """
    if any(s.state == "dynamic" and source in s.sources for s in facts.symbols):
        return True  # a float made dynamic has no input dim: its symbol says it varied
    values: set[object] = {spec.value for spec in facts.specializations if spec.source == source}
    for compile_ in facts.compiles:
        values.update(c.value for c in _floats(compile_) if c.source == source)
        for dim in compile_.inputs:
            if dim.source == source:
                if dim.symbolic:
                    return True
                values.add(dim.value)
    return len(values) > 1


#: A module's parameters (``...weight``, ``...bias``): static by torch's design
#: (``force_parameter_static_shapes``), never a size a call changes.
_PARAMETER = re.compile(r"\.(weight|bias)$|\._parameters\[")


def is_parameter(source: Source) -> bool:
    """Whether the size is of a module's parameter, not of an input."""
    return source.is_size and source.tensor is not None and bool(_PARAMETER.search(source.tensor))


def _priority(constant: Constant, recompiled: set[Source]) -> int:
    """What a hunt replays first: what recompiled, then the call's own inputs, then the rest."""
    if constant.source in recompiled:
        return 0
    return 1 if not constant.source.attributes else 2


def constants(facts: Facts) -> list[Constant]:
    """One per input that was a constant somewhere, those most likely to matter first.

    A forcing cause wins over the default; parameters' sizes are left out.
    """
    recompiled = {source for r in facts.recompiles for source in r.sources}
    found = _found(facts)
    return sorted(found.values(), key=lambda c: _priority(c, recompiled))


#: A float the graph baked in, as Dynamo checks it: ``L['temperature'] == 0.5``.
_FLOAT_CHECK = re.compile(r"^(?P<source>L\[.+\]) == (?P<value>-?(?:\d+\.\d*(?:e-?\d+)?|inf))$")


def _floats(compile_: Compile) -> list[Constant]:
    """The floats a compile held constant (torch's ``specialize_float``, on by default)."""
    found = []
    for check in compile_.value_checks:
        matched = _FLOAT_CHECK.match(check.code)
        if matched is not None:
            source = Source(matched["source"])
            name = user_name(source) or str(source)
            value = matched["value"]
            found.append(
                Constant(source, name, "float", "specialize_float", None, None, compile_, value)
            )
    return found


def _found(facts: Facts) -> dict[Source, Constant]:
    explained = {e.source: e for e in facts.explanations}
    by_compile: dict[str, list[Specialization]] = {}
    for spec in facts.specializations:
        by_compile.setdefault(spec.compile_id, []).append(spec)
    found: dict[Source, Constant] = {
        c.source: c for compile_ in facts.compiles for c in _floats(compile_)
    }
    for compile_ in facts.compiles:
        for dim in compile_.inputs:
            if dim.symbolic or is_parameter(dim.source):
                continue
            of_compile = by_compile.get(compile_.compile_id, [])
            constant = _constant(dim, compile_, of_compile, explained.get(dim.source))
            known = found.get(dim.source)
            if known is None or (
                constant.cause in FORCED_BY_CODE and known.cause not in FORCED_BY_CODE
            ):
                found[dim.source] = constant
    return found

"""Suggest fixes for each guard, specialization, symbol and recompile, as :class:`Fix` objects.

A fix is code the user can paste, in the user's own names (``torch._dynamo.mark_dynamic(x,
0)``, ``h[:, -1]``), its kind (a setting, a mark, a code change), what it does and costs, and
the torch settings that express it without editing the program (``fix_plan`` replays the
user's calls under those and records ``verified`` and ``effect`` on the same objects).

Rules every suggestion keeps (``tests/unit/test_fixes_facts.py`` checks them for every cause):

- the code parses, holds no sympy printing (``Eq(``, ``Mod(``) and no name a user cannot
  write (``___stack0``, ``L['...']`` outside a setting's string);
- no ``torch._check`` of a user branch's condition: it would assert that condition for
  every future call and turn the other side of the branch into a crash;
- what keeps the program correct for every size comes first; each fix says what it costs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symdebug.model.index import FactIndex
from symdebug.model.reasons import parse_reason
from symdebug.model.types import Facts, Fix, Guard, Recompile
from symdebug.model.values import Cause, FixKind, Source
from symdebug.processors.bounds import parse_range
from symdebug.processors.explanations import explanation_guards
from symdebug.processors.fix_code import (
    branch_condition,
    computed_index,
    divisor,
    pins_a_size,
    python_expression,
    size_expression,
    user_name,
)

DYNAMIC_SOURCES = "torch.compiler.config.dynamic_sources"
UNBACKED_SOURCES = "torch.compiler.config.unbacked_sources"
STATIC_BY_DEFAULT = "torch._dynamo.config.assume_static_by_default"
SIZE_OBLIVIOUS = "torch.fx.experimental._config.backed_size_oblivious"
DUCK_SHAPE = "torch.fx.experimental._config.use_duck_shape"
UNSPEC_INT_ON_MODULE = "torch._dynamo.config.allow_unspec_int_on_nn_module"
_CHANGED = re.compile(r"expected (\d+), actual (\d+)")


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a fix is chosen from; equal evidence gets the same fixes (computed once).

    Attributes
    ----------
    cause
        The cause class of the guard, specialization, symbol or recompile.
    source
        The input it is about (``L['x'].size()[0]``), when known.
    expr
        The guard, as torch prints it (``Eq(Mod(s27, 2), 0)``), when there is one.
    names
        Each symbol of the guard and its Python in the user's names.
    line
        The user line's source text (``if x.shape[0] < 64:``).
    small
        The size was 0 or 1 in a compile this is about: the 0/1 rule, not static-by-default,
        decides what helps.
    """

    cause: Cause
    source: Source | None = None
    expr: str = ""
    names: tuple[tuple[str, str], ...] = ()
    line: str = ""
    small: bool = False


def evidence_of(
    cause: Cause, source: str | None = None, guard: Guard | None = None, *, small: bool = False
) -> Evidence:
    """The evidence of a cause about ``source``, with its guard's expression and user line."""
    names: tuple[tuple[str, str], ...] = ()
    if guard is not None and len(guard.symbols) == len(guard.sources):
        pairs = zip(guard.symbols, guard.sources, strict=True)
        spelled = [(sym, size_expression(src)) for sym, src in pairs]
        names = tuple((sym, text) for sym, text in spelled if text is not None)
    frame = guard.user_frame if guard is not None else None
    return Evidence(
        cause=cause,
        source=Source(source) if source else None,
        expr=guard.expr if guard is not None else "",
        names=names,
        line=frame.line if frame is not None else "",
        small=small,
    )


def fixes_for(evidence: Evidence) -> list[Fix]:
    """The fixes for one piece of evidence, best first (new objects; see :class:`FixTable`).

    Parameters
    ----------
    evidence
        The cause, input, guard and user line (:func:`evidence_of`).

    Returns
    -------
    list of Fix
        Possibly empty: no fix is better than a wrong one (``inductor``, ``unknown``, a
        branch whose condition has no Python form).
    """
    cause = evidence.cause
    if evidence.small and cause in ("static_by_default", "zero_one") and _is_size(evidence):
        return _zero_one(evidence)
    return _BUILDERS.get(cause, _none)(evidence)


def _is_size(evidence: Evidence) -> bool:
    return evidence.source is not None and evidence.source.is_size


def _none(evidence: Evidence) -> list[Fix]:  # noqa: ARG001 - a builder's signature
    return []


def setting(name: str, value: Any, explanation: str) -> Fix:
    """A fix that is one torch setting, written as the assignment that applies it."""
    return Fix(f"{name} = {value!r}", "setting", explanation, {name: value})


def _fix(code: str, kind: FixKind, explanation: str, **settings: Any) -> Fix:
    return Fix(code, kind, explanation, {_SETTING_NAMES[k]: v for k, v in settings.items()})


_SETTING_NAMES = {
    "dynamic": DYNAMIC_SOURCES,
    "unbacked": UNBACKED_SOURCES,
    "oblivious": SIZE_OBLIVIOUS,
}


def _marked(source: Source) -> tuple[str, str, int] | None:
    """``(user's tensor name, Dynamo's tensor source, dim)`` of a size a user can mark."""
    if source.tensor is None or source.dim is None:
        return None
    name = user_name(source.tensor)
    return (name, source.tensor, source.dim) if name is not None else None


# ---------------------------------------------------------------- settings and marks


def _whole_program(why: str) -> Fix:
    return setting(
        STATIC_BY_DEFAULT,
        False,
        f"{why}every size and int is dynamic from the first compile (what "
        "torch.compile(dynamic=True) does); costs: guards and general kernels for sizes that "
        "never change too.",
    )


def _internal(source: Source) -> str:
    return (
        f"{source} is Dynamo's name for an intermediate value at a graph break: marks do not "
        "cross the eager code between graphs, so it cannot be marked; remove the graph break, "
        "or: "
    )


def _static(evidence: Evidence) -> list[Fix]:
    source = evidence.source
    if source is None:
        return [_whole_program("")]
    if not source.is_size:
        return _static_int(source)
    marked = _marked(source)
    if marked is None:
        return [_whole_program(_internal(source))]
    name, tensor, dim = marked
    mark = _fix(
        f"torch._dynamo.maybe_mark_dynamic({name}, {dim})",
        "mark",
        f"before the first call: {name}.shape[{dim}] is dynamic from the first compile, so "
        "the recompile when it first changes goes away; if the code needs one value, torch "
        "specializes it as before (mark_dynamic would raise instead).",
        dynamic=f"{tensor}:{dim}",
    )
    return [mark, _whole_program("")]


def _static_int(source: Source) -> list[Fix]:
    if source.attributes:
        return [_unspec_module_int(source)]
    name = user_name(source)
    if name is None:
        return [_whole_program(_internal(source))]
    mark = setting(
        DYNAMIC_SOURCES,
        str(source),
        f"ints are constants on the first compile, and automatic dynamic makes {name} dynamic "
        "after it first changes; this makes it dynamic from the first compile (the setting "
        "names the input as Dynamo does). No help when the code uses it as a Python int.",
    )
    return [mark, _whole_program("")]


def _unspec_module_int(source: Source) -> Fix:
    name = user_name(source) or "the attribute"
    return setting(
        UNSPEC_INT_ON_MODULE,
        True,
        f"nn.Module int attributes are constants: each value of {name} compiles anew. This "
        "makes them dynamic ints; no help where the code uses the int as a Python int (a loop "
        "count, a size in a list).",
    )


def _zero_one(evidence: Evidence) -> list[Fix]:
    oblivious = setting(
        SIZE_OBLIVIOUS,
        True,
        "a dynamic size of 0 or 1 stays symbolic: torch reasons as if it were >= 2 wherever "
        "the result is the same, so sizes of 1 share the general graph. Costs: where the "
        "program broadcasts a size of 1 or branches on it, torch may compile again or fail "
        "at run time.",
    )
    marked = _marked(evidence.source) if evidence.source is not None else None
    if marked is None:
        return [oblivious]
    name, tensor, dim = marked
    return [oblivious, _oblivious_mark(name, tensor, dim), _unbacked(name, tensor, dim)]


def _oblivious_mark(name: str, tensor: str, dim: int) -> Fix:
    return _fix(
        f"{SIZE_OBLIVIOUS} = True\ntorch._dynamo.maybe_mark_dynamic({name}, {dim})",
        "mark",
        f"the setting, and {name}.shape[{dim}] dynamic from the first call: a mark alone does "
        "nothing for a size of 0 or 1 (the 0/1 rule specializes it anyway).",
        oblivious=True,
        dynamic=f"{tensor}:{dim}",
    )


def _unbacked(name: str, tensor: str, dim: int) -> Fix:
    return _fix(
        f"torch._dynamo.decorators.mark_unbacked({name}, {dim})",
        "mark",
        f"{name}.shape[{dim}] gets no value at compile time at all: every branch, broadcast "
        "or op that asks whether it is 1 raises a data-dependent error or breaks the graph "
        "(a Llama decode loop went from 4 compiles to 31 with it). Try the setting first.",
        unbacked=f"{tensor}:{dim}",
    )


def _duck(evidence: Evidence) -> list[Fix]:  # noqa: ARG001 - a builder's signature
    return [
        setting(
            DUCK_SHAPE,
            False,
            "sizes that are equal on the first call get one symbol each, so a later call "
            "where they differ does not recompile; costs: torch no longer assumes they are "
            "equal (more guards where an op needs them equal).",
        )
    ]


def _int_specialized(evidence: Evidence) -> list[Fix]:
    source = evidence.source
    if source is None or source.is_size:
        return []
    if source.attributes:
        return [_unspec_module_int(source)]
    name = user_name(source)
    if name is None or not name.isidentifier():
        return []
    return [
        Fix(
            f"{name} = torch.as_tensor({name})",
            "code",
            f"in the caller, before the compiled call: the code uses {name} as a Python int "
            "(a loop count, an index), so each value compiles anew; pass it as a tensor and "
            "compute with tensor ops (its value is then data, not a constant). A Python loop "
            "over it cannot stay a loop: write it without one.",
        )
    ]


def _violated(evidence: Evidence) -> list[Fix]:
    marked = _marked(evidence.source) if evidence.source is not None else None
    if marked is None:
        return []
    name, _, dim = marked
    return [
        Fix(
            f"torch._dynamo.maybe_mark_dynamic({name}, {dim})",
            "code",
            f"instead of mark_dynamic: the user line fixes {name}.shape[{dim}] to one value, "
            "which mark_dynamic turns into an error; maybe_mark_dynamic lets torch specialize "
            "it (one compile per value). Or change that line so it needs no fixed size.",
        )
    ]


# ---------------------------------------------------------------- code changes


def _condition(evidence: Evidence) -> str | None:
    return branch_condition(evidence.line) or python_expression(evidence.expr, dict(evidence.names))


def _operands(evidence: Evidence) -> str:
    sizes = [text for _, text in evidence.names if ".shape[" in text]
    tensors = list(dict.fromkeys(text.rsplit(".shape[", 1)[0] for text in sizes))
    return f"({', '.join(tensors)},)" if tensors else "()"


def _branch(evidence: Evidence) -> list[Fix]:
    condition = _condition(evidence)
    if condition is None:
        return []
    operands = _operands(evidence)
    return [
        Fix(
            f"torch.cond({condition}, true_fn, false_fn, {operands})",
            "code",
            f"one graph for both sides of `if {condition}`: write each side as a function of "
            f"{operands} (true_fn, false_fn); both are traced and must return tensors of the "
            "same shape and dtype. Without it each side compiles once (one graph per side, "
            "bounded). Asserting the condition with torch._check would make the other side "
            "raise.",
        )
    ]


def _op_requirement(evidence: Evidence) -> list[Fix]:
    if pins_a_size(evidence.expr):
        return _index_fixes(evidence)
    k = divisor(evidence.expr)
    if k is not None:
        return _padding(evidence, k)
    return _equal_sizes(evidence)


def _index_fixes(evidence: Evidence) -> list[Fix]:
    use = computed_index(evidence.line)
    if use is None:
        return []
    same = "one graph serves every size"
    fixes = [
        Fix(
            f"{use.tensor}.select({use.dim}, {use.index})",
            "code",
            f"the same element, with {use.index} kept an expression of the size instead of "
            f"fixing the size: {same}.",
        ),
        Fix(
            f"torch.narrow({use.tensor}, {use.dim}, {use.index}, 1)",
            "code",
            f"a view that keeps dim {use.dim} (length 1; squeeze({use.dim}) drops it): {same}.",
        ),
    ]
    if use.negative is not None:
        fixes.insert(
            0,
            Fix(
                use.negative,
                "code",
                f"a negative index counts from the end, so the graph needs no size: {same} "
                f"(the same as {use.tensor}.select({use.dim}, -{use.from_end})).",
            ),
        )
    return fixes


def _padding(evidence: Evidence, k: int) -> list[Fix]:
    marked = _marked(evidence.source) if evidence.source is not None else None
    if marked is None:
        return []
    name, _, dim = marked
    size = f"{name}.shape[{dim}]"
    pad = f"torch.nn.functional.pad({name}.movedim({dim}, -1), (0, -{size} % {k}))"
    return [
        Fix(
            f"{name} = {pad}.movedim(-1, {dim})",
            "code",
            f"the op needs {size} to be a multiple of {k}, so torch compiles once per remainder "
            f"of {size} % {k}; padding to a multiple makes every size take one path (drop or "
            "mask the padded part after; costs a copy). A torch._check would make every other "
            "size raise.",
        )
    ]


def _equal_sizes(evidence: Evidence) -> list[Fix]:
    """Two sizes an op needs equal: a check, honest about the calls it would break."""
    if not evidence.expr.startswith("Eq(") or len(evidence.names) < 2:
        return []
    expression = python_expression(evidence.expr, dict(evidence.names))
    if expression is None:
        return []
    return [
        Fix(
            f"torch._check({expression})",
            "code",
            "only if these sizes are equal on every call: it asserts this for every future "
            "call, and a call where they differ (a size of 1 that broadcasts) then raises "
            "instead of recompiling.",
        )
    ]


_BUILDERS: dict[str, Callable[[Evidence], list[Fix]]] = {
    "user_branch": _branch,
    "op_requirement": _op_requirement,
    "int_specialized": _int_specialized,
    "zero_one": _zero_one,
    "duck_sizing": _duck,
    "static_by_default": _static,
    "mark_dynamic_violated": _violated,
}


# ---------------------------------------------------------------- the pass


class FixTable:
    """Fixes of one session: equal evidence answered once, equal fixes one shared object.

    Sharing is by what a fix is (code, kind, explanation, settings), so when ``fix_plan``
    records ``verified`` on one, every guard that suggests it shows it; a table is never
    shared between sessions.
    """

    def __init__(self) -> None:
        self._fixes: dict[tuple[str, str, str, str], Fix] = {}
        self._answers: dict[Evidence, list[Fix]] = {}

    def fixes(self, evidence: Evidence) -> list[Fix]:
        """The shared fixes of ``evidence`` (a new list, holding shared objects)."""
        answer = self._answers.get(evidence)
        if answer is None:
            answer = [self._shared(fix) for fix in fixes_for(evidence)]
            self._answers[evidence] = answer
        return list(answer)

    def _shared(self, fix: Fix) -> Fix:
        key = (fix.code, fix.kind, fix.explanation, repr(sorted(fix.settings.items())))
        return self._fixes.setdefault(key, fix)


def first_line(fixes: list[Fix]) -> str | None:
    """The one-line text of the first fix (the ``fix`` attribute every record keeps)."""
    return str(fixes[0]) if fixes else None


def _is_small(*values: int | str | None) -> bool:
    return any(value in (0, 1) for value in values)


def _symbol_fixes(facts: Facts, table: FixTable) -> None:
    """Symbols that are not dynamic: the fixes for their first source."""
    index = FactIndex(facts)
    for symbol in facts.symbols:
        if symbol.state in ("dynamic", "unbacked") or not symbol.sources:
            continue
        source = symbol.sources[0]
        guards = explanation_guards(index, symbol, source)
        evidence = evidence_of(
            symbol.cause or "unknown",
            source,
            guards[0] if guards else None,
            small=_is_small(symbol.hint),
        )
        symbol.fixes = table.fixes(evidence)
        symbol.fix = first_line(symbol.fixes)


def _recompile_source(recompile: Recompile) -> Source | None:
    if recompile.specialization is not None:
        return recompile.specialization.source
    if recompile.guard is not None and recompile.guard.sources:
        return recompile.guard.sources[0]
    if recompile.reasons:  # a bound no guard set (``2 <= x.size()[0]``)
        bounds = parse_range(parse_reason(recompile.reasons[0]).code)
        return Source(bounds[0]) if bounds is not None else None
    return None


def _recompile_evidence(recompile: Recompile) -> Evidence:
    changed = _CHANGED.search(recompile.reasons[0]) if recompile.reasons else None
    values = [int(v) for v in changed.groups()] if changed else []
    spec = recompile.specialization
    small = _is_small(*values, spec.value if spec is not None else None)
    source = _recompile_source(recompile)
    return evidence_of(recompile.cause, source, recompile.guard, small=small)


def suggest_fixes(facts: Facts) -> None:
    """Set ``fixes`` (and ``fix``, the first one's text) on every kind of record."""
    table = FixTable()
    _symbol_fixes(facts, table)
    for guard in facts.guards:
        source = guard.sources[0] if guard.sources else None
        guard.fixes = table.fixes(evidence_of(guard.cause, source, guard))
        guard.fix = first_line(guard.fixes)
    for spec in facts.specializations:
        first = spec.guards[0] if spec.guards else None
        evidence = evidence_of(spec.cause, spec.source, first, small=_is_small(spec.value))
        spec.fixes = table.fixes(evidence)
        spec.fix = first_line(spec.fixes)
    for recompile in facts.recompiles:
        recompile.fixes = table.fixes(_recompile_evidence(recompile))
        recompile.fix = first_line(recompile.fixes)


# ---------------------------------------------------------------- text


def verification(fix: Fix) -> str:
    """``not tried``, ``verified: <effect>`` or ``failed: <effect>``: what a replay showed."""
    if fix.verified is None:
        return "not tried"
    word = "verified" if fix.verified else "failed"
    return f"{word}: {fix.effect}" if fix.effect else word


def fix_lines(fix: Fix, indent: str = "  ", *, explained: bool = True) -> list[str]:
    """A fix as text lines: its code, its kind and what a replay showed, then what it does.

    Parameters
    ----------
    fix
        The fix.
    indent
        Put before every line.
    explained
        Whether to add the explanation (a summary leaves it to ``why``).

    Returns
    -------
    list of str
        ``fix: <code>  [<kind>; <verification>]`` (code of several lines under it), then
        ``# <explanation>``.
    """
    status = f"[{fix.kind}; {verification(fix)}]"
    code = fix.code.splitlines() or [""]
    if len(code) == 1:
        lines = [f"{indent}fix: {code[0]}  {status}"]
    else:
        lines = [f"{indent}fix: {status}", *(f"{indent}    {line}" for line in code)]
    if fix.explanation and explained:
        lines.append(f"{indent}    # {fix.explanation}")
    return lines

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

from symdebug._torch.releases import parse_version
from symdebug.fixes.bounds import parse_range
from symdebug.fixes.containers import length_container
from symdebug.fixes.declared_fixes import (
    declared_detail,
    dynamic_shapes_fixes,
    static_sources_fixes,
)
from symdebug.fixes.fix_changes import branch_fixes, op_requirement_fixes
from symdebug.fixes.fix_evidence import (
    DYNAMIC_SOURCES,
    RECOMPILE_LIMIT,
    SIZE_OBLIVIOUS,
    STATIC_BY_DEFAULT,
    UNBACKED_SOURCES,
    Evidence,
    EvidenceKey,
    evidence_key,
    evidence_of,
    is_size,
)
from symdebug.fixes.fix_settings import (
    became_dynamic_fix,
    duck_fixes,
    dynamic_false_fixes,
    identity_fixes,
    int_specialized_fixes,
    length_fixes,
    limit_hit_fix,
    mark_static_fixes,
    static_fixes,
    violated_fixes,
    zero_one_fixes,
)
from symdebug.fixes.fix_state import (
    float_fixes,
    global_state_fixes,
    inductor_fixes,
    is_float_check,
    mark_range_fixes,
    range_value,
    state_values,
)
from symdebug.fixes.fix_tensor_state import (
    device_fixes,
    dispatch_keys_fixes,
    dtype_fixes,
    requires_grad_fixes,
    strides_fixes,
)
from symdebug.fixes.fix_text import fix_lines
from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Facts, Fix, Recompile, Specialization
from symdebug.model.values import Source
from symdebug.processors.explanations import CompileLookup, explanation_guards
from symdebug.processors.writes import Writes
from symdebug.torchtext.reasons import Reason, reason_entry

__all__ = [
    "DYNAMIC_SOURCES",
    "SIZE_OBLIVIOUS",
    "STATIC_BY_DEFAULT",
    "UNBACKED_SOURCES",
    "FixTable",
    "evidence_of",
    "fix_lines",
    "fixes_for",
    "suggest_fixes",
]
_CHANGED = re.compile(r"expected (\d+), actual (\d+)")


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
    if cause in _HELD_CONSTANT and is_float_check(evidence.expr):
        return float_fixes(evidence)
    if evidence.small and cause in ("static_by_default", "zero_one") and is_size(evidence):
        return zero_one_fixes(evidence)
    return _BUILDERS.get(cause, _none)(evidence)


def _none(evidence: Evidence) -> list[Fix]:  # noqa: ARG001 - a builder's signature
    return []


_BUILDERS: dict[str, Callable[[Evidence], list[Fix]]] = {
    "user_branch": branch_fixes,
    "op_requirement": op_requirement_fixes,
    "int_specialized": int_specialized_fixes,
    "zero_one": zero_one_fixes,
    "duck_sizing": duck_fixes,
    "static_by_default": static_fixes,
    "mark_dynamic_violated": violated_fixes,
    "mark_static": mark_static_fixes,
    "dynamic_false": dynamic_false_fixes,
    "length": length_fixes,
    "identity": identity_fixes,
    "dtype": dtype_fixes,
    "strides": strides_fixes,
    "requires_grad": requires_grad_fixes,
    "device": device_fixes,
    "dispatch_keys": dispatch_keys_fixes,
    "global_state": global_state_fixes,
    "inductor": inductor_fixes,
    "mark_dynamic_range": mark_range_fixes,
    "static_sources": static_sources_fixes,
    "dynamic_shapes": dynamic_shapes_fixes,
}
#: Causes of a value held constant: a float's are worded for floats.
_HELD_CONSTANT = frozenset({"static_by_default", "int_specialized", "dynamic_false"})
#: Recompile causes whose fix reads what changed from torch's check itself (no guard holds it).
_READS_CHECK = frozenset(
    {"identity", "length", "dtype", "strides", "requires_grad", "device", "dispatch_keys"}
    | {"global_state", "mark_dynamic_range", "static_sources", "dynamic_shapes"}
)


class FixTable:
    """Fixes of one session: equal evidence answered once, equal fixes one shared object.

    Sharing is by what a fix is (code, kind, explanation, settings), so when ``fix_plan``
    records ``verified`` on one, every guard that suggests it shows it; a table is never
    shared between sessions.
    """

    def __init__(self, release: str = "") -> None:
        #: The session's torch (``"2.15"``): a fix that needs a later one is not suggested.
        self.release = parse_version(release)
        self._fixes: dict[tuple[str, str, str, str], Fix] = {}
        # Each answer with its first fix's text: records of equal evidence repeat both.
        self._answers: dict[EvidenceKey, tuple[list[Fix], str | None]] = {}

    def fixes(self, evidence: Evidence) -> list[Fix]:
        """The shared fixes of ``evidence`` (a new list, holding shared objects)."""
        key: EvidenceKey = (
            evidence.cause,
            evidence.source,
            evidence.expr,
            evidence.names,
            evidence.line,
            evidence.small,
            evidence.container,
            evidence.detail,
        )
        return self.fixes_of(key)

    def fixes_of(self, key: EvidenceKey) -> list[Fix]:
        """The shared fixes of the evidence with these fields (see :func:`evidence_key`)."""
        return self.answer(key)[0]

    def answer(self, key: EvidenceKey) -> tuple[list[Fix], str | None]:
        """:meth:`fixes_of` (a new list), and :func:`first_line` of it."""
        answer = self._answers.get(key)
        if answer is None:
            fixes = [self.shared(fix) for fix in fixes_for(Evidence(*key)) if self._has(fix)]
            answer = self._answers[key] = (fixes, first_line(fixes))
        return list(answer[0]), answer[1]

    def _has(self, fix: Fix) -> bool:
        """Whether the session's torch has what the fix needs (an unknown one: yes)."""
        needs = parse_version(fix.needs)
        return needs is None or self.release is None or self.release >= needs

    def shared(self, fix: Fix) -> Fix:
        """The session's one object equal to ``fix``."""
        key = (fix.code, fix.kind, fix.explanation, repr(sorted(fix.settings.items())))
        return self._fixes.setdefault(key, fix)


def first_line(fixes: list[Fix]) -> str | None:
    """The one-line text of the first fix (the ``fix`` attribute every record keeps)."""
    return str(fixes[0]) if fixes else None


def _is_small(*values: int | str | None) -> bool:
    return any(value in (0, 1) for value in values)


#: What a record gets: its fixes, best first, and the first one's text.
_Answer = tuple[list[Fix], str | None]
_FIELDS = ("fixes", "fix")


def _symbol_fixes(facts: Facts, table: FixTable, writes: Writes) -> None:
    """Symbols that are not dynamic: the fixes for their first source."""
    fixed = [s for s in facts.symbols if s.state not in ("dynamic", "unbacked") and s.sources]
    lookup = CompileLookup(FactIndex(facts), (symbol.compile_id for symbol in fixed))
    answers: list[_Answer] = []
    for symbol in fixed:
        source = symbol.sources[0]
        guards = explanation_guards(lookup, symbol, source)
        cause = symbol.cause or "unknown"
        first = guards[0] if guards else None
        key = evidence_key(cause, source, first, small=_is_small(symbol.hint))
        answers.append(
            table.answer(_with_declared(key, lookup.index.compile.get(symbol.compile_id)))
        )
    writes.rows(_FIELDS, fixed, answers)


#: What a guard's evidence is made of: its cause, expression, user line, symbols, sources.
_GuardContent = tuple[str, str, str, tuple[str, ...], tuple[Source, ...]]


def _guard_fixes(facts: Facts, table: FixTable, writes: Writes) -> None:
    """Every guard's fixes; the recompiles of a frame repeat its guards, answered once each.

    A guard's raw fields are a cheaper key than its evidence (:func:`evidence_key` spells
    each symbol), and they decide it.
    """
    answers: dict[_GuardContent, _Answer] = {}
    rows: list[tuple[list[Fix], str | None]] = []
    for guard in facts.guards:
        line = guard.user_stack[-1].line if guard.user_stack else ""  # its user frame's
        content = (guard.cause, guard.expr, line, tuple(guard.symbols), tuple(guard.sources))
        answer = answers.get(content)
        if answer is None:
            source = guard.sources[0] if guard.sources else None
            answer = answers[content] = table.answer(evidence_key(guard.cause, source, guard))
        rows.append((list(answer[0]), answer[1]))
    writes.rows(_FIELDS, facts.guards, rows)


def reason_check(raw: str) -> str:
    """``parse_reason(raw).code``: the check of a recompile reason, its kind left unread.

    Torch words a reason ``<entry>: <check>``; telling its kind takes a dozen regex searches
    that a fix, which needs only the check, would pay for each recompile.
    """
    text = raw.strip()
    entry = reason_entry(text)
    return Reason(entry, text[len(entry) + 2 :] if entry else text, "other").code


def _recompile_source(recompile: Recompile) -> Source | None:
    if recompile.specialization is not None:
        return recompile.specialization.source
    if recompile.guard is not None and recompile.guard.sources:
        return recompile.guard.sources[0]
    if recompile.reasons:  # a bound no guard set (``2 <= x.size()[0]``)
        bounds = parse_range(reason_check(recompile.reasons[0]))
        if bounds is not None:
            # torch words checks without the local scope; settings must name Dynamo's
            # source (``dynamic_sources = "L['x']:0"``, not ``"x:0"``, which matches nothing)
            full = [s for s in recompile.sources if s.same_input(bounds[0])]
            return full[0] if full else None
    return recompile.sources[0] if recompile.sources else None


def _recompile_evidence(recompile: Recompile, index: FactIndex) -> Evidence:
    changed = _CHANGED.search(recompile.reasons[0]) if recompile.reasons else None
    values = [int(v) for v in changed.groups()] if changed else []
    spec = recompile.specialization
    small = _is_small(*values, spec.value if spec is not None else None)
    source = _recompile_source(recompile)
    check = reason_check(recompile.reasons[0]) if recompile.reasons else ""
    if _reads_check(recompile, check):
        counted = length_container(recompile, index) if recompile.cause == "length" else ""
        detail = _DETAILS[recompile.cause](recompile, index) if recompile.cause in _DETAILS else ""
        return Evidence(recompile.cause, source, expr=check, container=counted, detail=detail)
    return evidence_of(recompile.cause, source, recompile.guard, small=small)


#: What the words of a cause need beyond the check: the value that left a mark's range, the
#: global state's values in the two compiles.
_DETAILS: dict[str, Callable[[Recompile, FactIndex], str]] = {
    "mark_dynamic_range": range_value,
    "global_state": state_values,
    "static_sources": lambda r, index: declared_detail(r.cause, _failed(r, index)),
    "dynamic_shapes": lambda r, index: declared_detail(r.cause, _failed(r, index)),
}


def _failed(recompile: Recompile, index: FactIndex) -> Compile | None:
    """The entry whose check failed (it held what the user declared)."""
    return index.compile.get(recompile.failed_entry or "")


def _reads_check(recompile: Recompile, check: str) -> bool:
    """No guard holds the check (a dtype, a float's value): the fix reads what changed in it."""
    if not check or recompile.cause in _READS_CHECK:
        return bool(check)
    if recompile.guard is not None:
        return False
    held_float = recompile.cause in _HELD_CONSTANT and is_float_check(check)
    return recompile.cause == "op_requirement" or held_float


def suggest_fixes(facts: Facts) -> Writes:
    """Set ``fixes`` (and ``fix``, the first one's text) on every kind of record."""
    table = FixTable(facts.torch.release)
    writes = Writes()
    _symbol_fixes(facts, table, writes)
    _guard_fixes(facts, table, writes)
    specs = facts.specializations
    index = FactIndex(facts)
    writes.rows(_FIELDS, specs, [table.answer(_spec_key(spec, index)) for spec in specs])
    recompiles = facts.recompiles
    fixes = [_recompile_fixes(recompile, index, table) for recompile in recompiles]
    return writes.rows(_FIELDS, recompiles, [(f, first_line(f)) for f in fixes])


def _spec_key(spec: Specialization, index: FactIndex) -> EvidenceKey:
    first = spec.guards[0] if spec.guards else None
    key = evidence_key(spec.cause, spec.source, first, small=_is_small(spec.value))
    return _with_declared(key, index.compile.get(spec.compile_id))


def _with_declared(key: EvidenceKey, compile_: Compile | None) -> EvidenceKey:
    """The key with what a declared cause's fix reads of the compile (else as it was)."""
    detail = declared_detail(key[0], compile_)
    return (*key[:7], detail) if detail else key


def _recompile_fixes(recompile: Recompile, index: FactIndex, table: FixTable) -> list[Fix]:
    """What would have avoided a recompile, best first (a new list)."""
    together = became_dynamic_fix(recompile, index)
    limit = limit_hit_fix(recompile, index)
    fixes = table.fixes(_recompile_evidence(recompile, index))
    if limit is not None:  # the limit it hit, not the default one; after the best fix
        kept = [f for f in fixes if RECOMPILE_LIMIT not in f.settings]
        fixes = [*kept[:1], table.shared(limit), *kept[1:]]
    if together is not None:
        fixes.insert(0, table.shared(together))
    return fixes

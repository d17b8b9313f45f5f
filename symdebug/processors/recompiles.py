"""Link each recompile to the check that failed: a Guard, a Specialization, or a rule."""

from __future__ import annotations

from symdebug.model.reasons import Reason, parse_reason, strip_local_scope
from symdebug.model.types import Compile, Facts, Guard, Recompile, Specialization
from symdebug.processors.bounds import bound_guard, parse_range

#: Reason kinds whose cause is in the wording itself.
_KIND_CAUSES = {"duck_sizing": "duck_sizing", "zero_one": "zero_one"}


def _new_value(facts: Facts, compile_id: str, source: str) -> int | None:
    """The value the new compile saw for a (stripped) source: why the old range failed."""
    for symbol in facts.symbols:
        if symbol.compile_id == compile_id and any(
            strip_local_scope(s) == source for s in symbol.sources
        ):
            return symbol.hint
    return None


def _range_failure(recompile: Recompile, reason: Reason, facts: Facts, guards: list[Guard]) -> bool:
    """For ``2 <= x.size()[0] <= 4096``: find which bound the new size broke, and why."""
    parsed = parse_range(reason.code)
    if parsed is None:
        return False
    source, lower, upper = parsed
    value = _new_value(facts, recompile.compile_id, source)
    upper_broken = value is not None and upper is not None and value > upper
    if not upper_broken and reason.kind == "zero_one":
        recompile.cause = "zero_one"
        return True
    bound = upper if upper_broken else lower
    guard = (
        bound_guard(guards, source, bound, lower=not upper_broken) if bound is not None else None
    )
    if guard is None:
        return False
    recompile.guard, recompile.cause = guard, guard.cause
    return True


def _spec_for(reason: Reason, specs: list[Specialization]) -> Specialization | None:
    if reason.kind == "tensor_mismatch":
        wanted = f"{reason.tensor}.size()[{reason.index}]"
    elif reason.kind == "equals" and reason.source:
        wanted = reason.source
    else:
        return None
    return next((s for s in specs if strip_local_scope(s.source) == wanted), None)


def _same_file(short: str, full: str) -> bool:
    return full.replace("\\", "/").endswith(short.replace("\\", "/").lstrip("."))


def _at_user_line(reason: Reason, guards: list[Guard]) -> list[Guard]:
    return [
        g
        for g in guards
        if g.user_frame is not None
        and g.user_frame.lineno == reason.user_line
        and g.user_frame.name == reason.user_fn
        and _same_file(reason.user_file or "", g.user_frame.filename)
    ]


def _at_framework_line(reason: Reason, guards: list[Guard]) -> list[Guard]:
    fw_line = (reason.framework_loc or "").split(" in ")[0]
    return [
        g
        for g in guards
        if any(_same_file(fw_line, f"{f.filename}:{f.lineno}") for f in g.framework_stack)
    ]


def guard_for_reason(reason: Reason, guards: list[Guard]) -> Guard | None:
    """The guard torch located next to the failed check, or naming its sources.

    Replacements (``b.size()[0] == a.size()[0]``) carry no location, so they match by source.
    """
    candidates = _at_user_line(reason, guards) if reason.user_line is not None else guards
    if reason.framework_loc:
        candidates = _at_framework_line(reason, candidates) or candidates
    mentioned = [
        g
        for g in candidates
        if g.sources and all(strip_local_scope(s) in reason.code for s in g.sources)
    ]
    if reason.user_line is None:
        return mentioned[0] if mentioned else None
    found = mentioned or candidates
    return found[0] if found else None


def _link(recompile: Recompile, reason: Reason, facts: Facts) -> None:
    entry = reason.entry
    specs = [s for s in facts.specializations if s.compile_id == entry]
    guards = [g for g in facts.guards if g.compile_id == entry and g.status == "installed"]
    recompile.specialization = _spec_for(reason, specs)
    if _range_failure(recompile, reason, facts, guards):
        return
    recompile.guard = guard_for_reason(reason, guards) if reason.kind not in _KIND_CAUSES else None
    if recompile.specialization is not None:
        recompile.cause = recompile.specialization.cause
        recompile.guard = recompile.guard or next(iter(recompile.specialization.guards), None)
    elif reason.kind in _KIND_CAUSES:
        recompile.cause = _KIND_CAUSES[reason.kind]
    elif recompile.guard is not None:
        recompile.cause = recompile.guard.cause


def _full_sources(facts: Facts, stripped: str) -> list[str]:
    """``x.size()[0]`` (as torch writes checks) -> the sources symbols carry for it."""
    found = [
        source
        for symbol in facts.symbols
        for source in symbol.sources
        if strip_local_scope(source) == stripped
    ]
    return found[:1] or [stripped]


def failed_sources(recompile: Recompile, reason: Reason, facts: Facts) -> list[str]:
    """The inputs whose check failed: the specialization's, the guard's, or the bound's."""
    found = [recompile.specialization.source] if recompile.specialization else []
    found += recompile.guard.sources if recompile.guard else []
    parsed = parse_range(reason.code)
    if parsed is not None:
        found += _full_sources(facts, parsed[0])
    return list(dict.fromkeys(found))


def recompile_of(compile_: Compile, facts: Facts) -> Recompile | None:
    """The Recompile record of a compile that replaced an earlier one, if it did."""
    if not compile_.recompile_reasons:
        return None
    reasons = [parse_reason(text) for text in compile_.recompile_reasons]
    suffix = f"@{compile_.generation}" if compile_.generation else ""
    for reason in reasons:  # torch names entries of the same generation (ids restart on reset)
        reason.entry = f"{reason.entry}{suffix}" if reason.entry else None
    entries = [r.entry for r in reasons if r.entry]
    recompile = Recompile(
        compile_id=compile_.compile_id,
        failed_entry=entries[0] if entries else None,
        reasons=list(compile_.recompile_reasons),
        failed_entries=entries,
    )
    _link(recompile, reasons[0], facts)
    recompile.sources = failed_sources(recompile, reasons[0], facts)
    return recompile


def link_recompiles(facts: Facts) -> None:
    """Fill ``facts.recompiles``, one per compile that torch recompiled."""
    facts.recompiles = [r for c in facts.compiles if (r := recompile_of(c, facts)) is not None]

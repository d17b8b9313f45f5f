"""Link each recompile to the check that failed: a Guard, a Specialization, or a rule."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain
from operator import attrgetter

from symdebug.fixes.bounds import bound_guard, parse_range
from symdebug.fixes.fix_code import python_expression, size_expression
from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Facts, Guard, Recompile, Specialization
from symdebug.model.values import Cause, CompileId, Source, posix_path
from symdebug.processors.causes import frames_of, framework_cause
from symdebug.processors.recompile_lines import recompile_line
from symdebug.processors.writes import Writes
from symdebug.torchtext.reasons import (
    MARK_RANGE,
    TENSOR_CHECKS,
    Reason,
    closest_reason,
    parse_reason,
    reason_entry,
)

#: Reason kinds whose cause is in the wording itself.
_KIND_CAUSES: dict[str, Cause] = {
    "duck_sizing": "duck_sizing",
    "zero_one": "zero_one",
    "length": "length",
    "identity": "identity",
    # What a tensor is or what state torch ran in (:mod:`symdebug.torchtext.state_reasons`).
    "dtype": "dtype",
    "stride_mismatch": "strides",
    "requires_grad": "requires_grad",
    "device": "device",
    "dispatch_keys": "dispatch_keys",
    "global_state": "global_state",
    "mark_range": "mark_dynamic_range",  # a call declared another range (torch 2.15)
}
_NOT_IN_CHECK = re.compile(r"[\s()]")
_SOURCES = attrgetter("sources")


def _new_value(index: FactIndex, compile_id: str, source: str) -> int | None:
    """The value the new compile saw for a (stripped) source: why the old range failed.

    A symbol's hint, else the constant the compile's inputs record (a size made static).
    """
    for symbol in index.symbols_of(compile_id):
        if any(s.stripped == source for s in symbol.sources):
            return symbol.hint
    compile_ = index.compile.get(compile_id)
    dims = compile_.inputs if compile_ is not None else []
    values = [d.value for d in dims if d.source.stripped == source]
    return next((v for v in values if isinstance(v, int)), None)


def _marked_range(recompile: Recompile, reason: Reason, index: FactIndex, source: str) -> bool:
    """A ``mark_dynamic(x, d, min=, max=)`` range the new value left: the mark's bound."""
    entry = index.compile.get(reason.entry or "")
    if entry is None or not any(s.stripped == source for s in entry.marked_dynamic):
        return False
    recompile.cause = "mark_dynamic_range"
    return True


def _range_failure(
    recompile: Recompile, reason: Reason, index: FactIndex, guards: list[Guard]
) -> bool:
    """For ``2 <= x.size()[0] <= 4096``: find which bound the new size broke, and why."""
    parsed = parse_range(reason.code)
    if parsed is None:
        return False
    source, lower, upper = parsed
    value = _new_value(index, recompile.compile_id, source)
    upper_broken = value is not None and upper is not None and value > upper
    lower_broken = value is not None and lower is not None and value < lower
    above_two = lower_broken and lower is not None and lower > 2  # a mark's own lower bound
    if not upper_broken and not above_two and reason.kind == "zero_one":
        recompile.cause = "zero_one"  # a size of 0 or 1 left the range torch starts at 2
        return True
    bound = upper if upper_broken else lower
    guard = (
        bound_guard(guards, source, bound, lower=not upper_broken) if bound is not None else None
    )
    if guard is None:
        return _marked_range(recompile, reason, index, source)
    recompile.guard, recompile.cause = guard, guard.cause
    return True


def _spec_for(reason: Reason, specs: list[Specialization]) -> Specialization | None:
    if reason.kind == "tensor_mismatch":
        wanted: str = Source.size(reason.tensor or "", reason.index or 0)
    elif reason.kind == "equals" and reason.source:
        wanted = reason.source
    else:
        return None
    return next((s for s in specs if s.source.stripped == wanted), None)


def _same_file(short: str, full: str) -> bool:
    return posix_path(full).endswith(posix_path(short).lstrip("."))


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
    A guard torch recorded once, at an earlier line (the slice that made ``y.shape[0] // 2``),
    fails at the line that checked it again: it is found by its expression.
    """
    candidates = _at_user_line(reason, guards) if reason.user_line is not None else guards
    if reason.framework_loc:
        candidates = _at_framework_line(reason, candidates) or candidates
    mentioned = _mentioned(reason.code, candidates)
    if reason.user_line is None:
        return mentioned[0] if mentioned else _same_check(reason, guards)
    found = mentioned or candidates
    return found[0] if found else _same_check(reason, guards)


def _check_text(text: str) -> str:
    """A check without spaces and parentheses, sizes as ``.shape[i]``: for comparing."""
    return _NOT_IN_CHECK.sub("", text.replace(".size()[", ".shape["))


def _mentioned(code: str, guards: list[Guard]) -> list[Guard]:
    """The guards with sources, every one of them named by the check (without ``L[...]``).

    A compile's guards share a few sources: each is looked for in the check once.
    """
    sources = dict.fromkeys(chain.from_iterable(map(_SOURCES, guards)))
    named = {source: source.stripped in code for source in sources}
    return [g for g in guards if g.sources and all(map(named.__getitem__, g.sources))]


#: Reasons about what a tensor is (its dtype, strides ...): the tensor is their input.
_STATE_KINDS = frozenset({"dtype", "stride_mismatch", "requires_grad", "device", "dispatch_keys"})

#: Reasons torch words about a tensor (``tensor 'x' size mismatch at index 0. ...``): no
#: Python check, so never the check of a guard.
_NOT_PYTHON = frozenset({"tensor_mismatch", "stride_mismatch"})


def _same_check(reason: Reason, guards: list[Guard]) -> Guard | None:
    """The guard whose expression, in the user's names, is the failed check."""
    if reason.kind in _NOT_PYTHON:
        return None
    wanted = _check_text(reason.code)
    if not wanted:
        return None  # an empty text is that of a guard without Python: never the same
    for guard in guards:
        symbols, sources = guard.symbols, guard.sources
        spelled = len(symbols) == len(sources)
        if spelled and _guard_check_text(guard.expr, tuple(symbols), tuple(sources)) == wanted:
            return guard
    return None


@lru_cache(maxsize=65536)
def _guard_check_text(expr: str, symbols: tuple[str, ...], sources: tuple[Source, ...]) -> str:
    """A guard as :func:`_check_text` of its Python (``""`` without one); recompiles repeat."""
    names = {
        sym: size_expression(src) or src.stripped for sym, src in zip(symbols, sources, strict=True)
    }
    python = python_expression(expr, names)
    return _check_text(python) if python is not None else ""


def _link(recompile: Recompile, reason: Reason, index: FactIndex) -> None:
    entry = reason.entry
    specs = index.specializations_of(entry)
    guards = [g for g in index.guards_of(entry) if g.status == "installed"]
    recompile.specialization = _spec_for(reason, specs)
    if _range_failure(recompile, reason, index, guards):
        return
    if reason.kind == "equals" and reason.is_float:  # no guard or specialization holds it
        recompile.cause = _float_cause(index.compile.get(reason.entry or ""))
        return
    recompile.guard = guard_for_reason(reason, guards) if reason.kind not in _KIND_CAUSES else None
    if recompile.specialization is not None:
        recompile.cause = recompile.specialization.cause
        recompile.guard = recompile.guard or next(iter(recompile.specialization.guards), None)
    elif reason.kind in _KIND_CAUSES:
        recompile.cause = _KIND_CAUSES[reason.kind]
    elif recompile.guard is not None:
        recompile.cause = recompile.guard.cause
    elif reason.framework_loc:
        frames = frames_of(index.facts)
        recompile.cause = framework_cause(reason.framework_loc, frames) or "unknown"


def _float_cause(entry: Compile | None) -> Cause:
    """A float held constant: as an int would be (static first, then automatic dynamic)."""
    if entry is not None and entry.automatic_dynamic is False:
        return "dynamic_false"
    return "int_specialized" if entry is not None and entry.dynamic else "static_by_default"


def _full_sources(index: FactIndex, stripped: str) -> list[Source]:
    """``x.size()[0]`` (as torch writes checks) -> the sources symbols carry for it."""
    found = [
        source
        for symbol in index.symbols_for(stripped)
        for source in symbol.sources
        if source.stripped == stripped
    ]
    return found[:1] or [Source(stripped)]


def failed_sources(recompile: Recompile, reason: Reason, index: FactIndex) -> list[Source]:
    """The inputs whose check failed: the specialization's, the guard's, or the bound's."""
    found = [recompile.specialization.source] if recompile.specialization else []
    found += recompile.guard.sources if recompile.guard else []
    parsed = parse_range(reason.code)
    if parsed is not None:
        found += _full_sources(index, parsed[0])
    if reason.kind in ("length", "identity") and reason.source:
        found.append(_local_source(reason.source))
    if reason.kind == "equals" and reason.is_float and reason.source:
        found.append(_local_source(reason.source))
    if reason.kind in _STATE_KINDS and reason.tensor:
        found.append(_local_source(reason.tensor))
    if reason.kind == "mark_range":
        found += _range_marked(reason, index)
    return list(dict.fromkeys(found))


def _range_marked(reason: Reason, index: FactIndex) -> list[Source]:
    """The dims the failed entry had marked, of the dim a range mismatch names."""
    declared = MARK_RANGE.search(reason.text)
    entry = index.compile.get(reason.entry or "")
    if declared is None or entry is None:
        return []
    return [s for s in entry.marked_dynamic if s.dim == int(declared["dim"])]


def _local_source(stripped: str) -> Source:
    """``feats`` (torch words checks without the local scope) -> ``L['feats']``."""
    root = re.match(r"[A-Za-z_]\w*", stripped)
    if root is None or stripped.startswith("G["):
        return Source(stripped)
    return Source(f"L['{root[0]}']{stripped[root.end() :]}")


def recompile_of(
    compile_: Compile, index: FactIndex, named: NamedEntries | None = None
) -> Recompile | None:
    """The Recompile record of a compile that replaced an earlier one, if it did.

    ``named``: the entries reasons name, kept across the compiles of one session.
    """
    if not compile_.recompile_reasons:
        return None
    reason, entry = _closest(compile_)
    named = named if named is not None else NamedEntries()
    entries = named.of(compile_.recompile_reasons, compile_.generation)
    reason.entry = entry
    recompile = Recompile(
        compile_id=compile_.compile_id,
        failed_entry=entry if entry is not None else next(iter(entries), None),
        reasons=list(compile_.recompile_reasons),
        failed_entries=entries,
    )
    _link(recompile, reason, index)
    recompile.sources = failed_sources(recompile, reason, index)
    recompile.user_frame = recompile_line(recompile, reason, index)
    return recompile


def _closest(compile_: Compile) -> tuple[Reason, CompileId | None]:
    """The reason read whole, and its entry: the one the call matched best.

    Entries failing on one tensor's checks are compared (:func:`closest_reason`); the
    others' reasons say only which entry failed.
    """
    texts = compile_.recompile_reasons
    first = parse_reason(texts[0])
    if len(texts) == 1 or first.kind not in TENSOR_CHECKS:
        reason = first
    else:
        reasons = [first, *map(parse_reason, texts[1:])]
        reason = reasons[closest_reason(reasons)]
    entry = CompileId(reason.entry).in_generation(compile_.generation) if reason.entry else None
    return reason, entry


class NamedEntries:
    """The entries recompile reasons name, per generation (torch's ids restart on reset).

    A frame recompiled N times lists its earlier entries' reasons again in each recompile,
    newest first: each text is read once, and a list that extends the one before by its
    first reason costs one look-up, so linking grows with the recompiles, not their square.
    """

    def __init__(self) -> None:
        self.by_text: dict[int, dict[str, CompileId | None]] = {}
        self.last: dict[int, tuple[list[str], list[CompileId]]] = {}

    def of(self, reasons: list[str], generation: int) -> list[CompileId]:
        """The entries ``reasons`` name, in order."""
        before = self.last.get(generation)
        if before is not None and reasons[1:] == before[0]:
            entries = [*self._read(reasons[:1], generation), *before[1]]
        else:
            entries = self._read(reasons, generation)
        self.last[generation] = (reasons, entries)
        return entries

    def _read(self, reasons: list[str], generation: int) -> list[CompileId]:
        known = self.by_text.setdefault(generation, {})
        for text in set(reasons).difference(known):
            entry = reason_entry(text)
            known[text] = CompileId(entry).in_generation(generation) if entry else None
        return [e for e in map(known.__getitem__, reasons) if e is not None]


def name_compiles(facts: Facts) -> Writes:
    """A compile without a frame name gets its frame's (the one that hit the recompile limit).

    Torch logs no code name for a compile it refused at the limit; every compile of the same
    frame and generation compiled the same code.
    """
    named = {(c.frame_id, c.generation): c for c in facts.compiles if c.name}
    unnamed = [
        (compile_, other)
        for compile_ in facts.compiles
        if not compile_.name
        and (other := named.get((compile_.frame_id, compile_.generation))) is not None
    ]
    return Writes().rows(
        ("name", "filename", "lineno"),
        [compile_ for compile_, _ in unnamed],
        [(other.name, other.filename, other.lineno) for _, other in unnamed],
    )


def link_recompiles(facts: Facts) -> Writes:
    """Fill ``facts.recompiles``, one per compile that torch recompiled."""
    index = FactIndex(facts)
    named = NamedEntries()
    recompiles = [r for c in facts.compiles if (r := recompile_of(c, index, named)) is not None]
    return Writes().put(facts, "recompiles", recompiles)

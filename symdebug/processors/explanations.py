"""Explain every input once, for ``why`` and every viewer.

Its state in its latest compile, the guards and recompiles behind it, the fix, and the
steps every view shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from symdebug.fixes.guard_text import guard_text
from symdebug.model.compiler_guards import compiler_guard_note
from symdebug.model.index import FactIndex
from symdebug.model.names import shown_name
from symdebug.model.types import (
    Compile,
    Facts,
    Fix,
    Frame,
    Guard,
    Recompile,
    SourceExplanation,
    Specialization,
    Symbol,
    WhyStep,
)
from symdebug.model.values import Source
from symdebug.processors.writes import Writes
from symdebug.torchtext.own_code import library_of, user_line

MAX_GUARD_STEPS = 8
_NO_FIX_STATES = ("dynamic", "unbacked")


class CompileLookup:
    """The first specialization of each input and the installed guards of each symbol.

    Only of the compiles it is made for (asking about another raises ``KeyError``): one
    pass over the guards and one over the specializations pick theirs, where grouping
    every compile's would cost more when a few are asked about.
    """

    def __init__(self, index: FactIndex, compile_ids: Iterable[str]) -> None:
        self.index = index
        wanted = set(compile_ids)
        self._specs = _first_specializations(index.facts.specializations, wanted)
        self._installed = _installed_guards(index.facts.guards, wanted)
        self._by_symbol: dict[str, dict[str, list[Guard]]] = {}

    def specialization(self, compile_id: str, source: str) -> Specialization | None:
        """The first specialization of ``source`` in a compile (``FactIndex.specialization``)."""
        return self._specs[compile_id].get(source)

    def installed_guards(self, compile_id: str, symbol: str) -> list[Guard]:
        """The installed guards of a compile that mention ``symbol``, in order (a new list)."""
        by_symbol = self._by_symbol.get(compile_id)
        if by_symbol is None:
            by_symbol = self._by_symbol[compile_id] = _by_symbol(self._installed[compile_id])
        return list(by_symbol.get(symbol, ()))


def _first_specializations(
    specs: list[Specialization], wanted: set[str]
) -> dict[str, dict[str, Specialization]]:
    """Per wanted compile, the first specialization of each source."""
    found: dict[str, dict[str, Specialization]] = {compile_id: {} for compile_id in wanted}
    for spec in reversed(specs):  # the first of a source is written last: it stays
        table = found.get(spec.compile_id)
        if table is not None:
            table[spec.source] = spec
    return found


def _installed_guards(guards: list[Guard], wanted: set[str]) -> dict[str, list[Guard]]:
    """Per wanted compile, its installed guards in order."""
    found: dict[str, list[Guard]] = {compile_id: [] for compile_id in wanted}
    for guard in guards:
        if guard.status == "installed":
            mine = found.get(guard.compile_id)
            if mine is not None:
                mine.append(guard)
    return found


def _by_symbol(guards: list[Guard]) -> dict[str, list[Guard]]:
    """The guards that mention each symbol, in order, each guard once."""
    found: dict[str, list[Guard]] = {}
    for guard in guards:
        for name in guard.symbols:
            mentioning = found.get(name)
            if mentioning is None:
                found[name] = [guard]
            elif mentioning[-1] is not guard:  # a symbol twice in one guard: listed once
                mentioning.append(guard)
    return found


def explanation_guards(lookup: CompileLookup, symbol: Symbol, source: str) -> list[Guard]:
    """The guards that forced a specialization, or else those that mention the symbol."""
    spec = lookup.specialization(symbol.compile_id, source)
    if spec is not None and spec.guards:
        return spec.guards
    return lookup.installed_guards(symbol.compile_id, symbol.name)


def _user_frame(symbol: Symbol, guards: list[Guard]) -> Frame | None:
    from_guards = next((g.user_frame for g in guards if g.user_frame), None)
    if symbol.state == "specialized":
        return from_guards or symbol.user_frame
    return symbol.user_frame or from_guards


def _fixes(
    lookup: CompileLookup, symbol: Symbol, source: str, recompiles: list[Recompile]
) -> list[Fix]:
    """The input's own fixes (of its specialization, else its symbol), then its recompiles'.

    The same objects, each once: an input that is dynamic now has none of its own, but
    what would have avoided its recompiles is what the user asks ``why`` for.
    """
    own: list[Fix] = []
    if symbol.state not in _NO_FIX_STATES:
        spec = lookup.specialization(symbol.compile_id, source)
        own = spec.fixes if spec is not None and spec.fixes else symbol.fixes
    found = [*own, *(fix for recompile in recompiles for fix in recompile.fixes)]
    return list({id(fix): fix for fix in found}.values())


def fix_step(fix: Fix) -> WhyStep:
    """A fix as a step: its code, then what it does (views show the Fix itself)."""
    return WhyStep("fix", f"{fix.code}\n# {fix.explanation}" if fix.explanation else fix.code)


def guard_steps(
    guard: Guard, caller: Frame | None = None, names: Mapping[str, str] | None = None
) -> list[WhyStep]:
    """A guard, its FX node (or the absence of one), its user line and any library line.

    The guard is said in the user's names first (``x.shape[1] > 8``), torch's form beside
    it (``s27 > 8``); ``names``: a wrapper frame's inputs by the user's names.

    A guard the compiler added (backward, Inductor) says so, and when it matters.

    The user line is the deepest one of the user's own code (``caller``, the call site of
    the compiled frame, when every traced line lies in a library).
    """
    said = guard_text(guard, names or {})
    shown = f"{said}  (torch: {guard.expr})" if said and said != guard.expr else guard.expr
    steps = [WhyStep("guard", f"{shown} [{guard.cause}, {guard.status}, {guard.phase}]", guard.id)]
    note = compiler_guard_note(guard)
    if guard.fx_node:
        inferred = " (inferred)" if guard.fx_node_inferred else ""
        target = f" ({guard.fx_node_target})" if guard.fx_node_target else ""
        steps.append(WhyStep("node", f"FX node {guard.fx_node}{inferred}{target}"))
    elif note is None:
        steps.append(WhyStep("node", "no FX node: Python control flow"))
    if note is not None:  # the compiler's own: no control flow of the user's
        steps.append(WhyStep("node", note))
    frame, library = user_line(guard.user_frame, guard.user_stack, caller)
    if frame is not None:
        steps.append(WhyStep("line", f"{frame.filename}:{frame.lineno}  {frame.line}", frame=frame))
    if library is not None:
        where = f"{library.filename}:{library.lineno}  {library.line}"
        steps.append(WhyStep("line", f"in {library_of(library.filename)}: {where}", frame=library))
    return steps


def _recompile_step(recompile: Recompile) -> WhyStep:
    reason = recompile.reasons[0] if recompile.reasons else ""
    text = f"recompile {recompile.compile_id}: entry {recompile.failed_entry} failed: {reason}"
    return WhyStep("recompile", text, recompile.guard.id if recompile.guard else None)


def _steps(
    explanation: SourceExplanation, recompiles: list[Recompile], compile_: Compile | None
) -> list[WhyStep]:
    e = explanation
    value = f" = {e.value}" if e.value is not None else ""
    cause = f" ({e.cause})" if e.cause and e.state != "dynamic" else ""
    said = f"{e.user_name} ({e.source})" if e.user_name else e.source
    names = compile_.callee.names if compile_ is not None and compile_.callee else {}
    steps = [WhyStep("state", f"{said} is {e.state}{value} in compile {e.compile_id}{cause}")]
    caller = compile_.caller if compile_ is not None else None
    for guard in e.guards[:MAX_GUARD_STEPS]:
        steps += guard_steps(guard, caller, names)
    steps += [_recompile_step(r) for r in recompiles]
    steps += [fix_step(fix) for fix in e.fixes]
    return steps


#: One definition of one compiled frame: ``(generation, frame id)``.  A function defined
#: again (a re-run notebook cell) is another frame, and two functions may name an input alike.
FrameKey = tuple[int, int]


def _frame_of(index: FactIndex, compile_id: str) -> FrameKey | None:
    compile_ = index.compile.get(compile_id)
    return (compile_.generation, compile_.frame_id) if compile_ is not None else None


def explain(
    lookup: CompileLookup, source: Source, symbol: Symbol, recompiles: list[Recompile]
) -> SourceExplanation:
    """The explanation of one input (named exactly as its symbols name it) in one frame.

    ``symbol`` is the frame's latest symbol or constant for it and ``recompiles`` the
    frame's recompiles on it: another function's ``x``, or an older definition of this one,
    has an explanation of its own.
    """
    index = lookup.index
    guards = explanation_guards(lookup, symbol, source)
    explanation = SourceExplanation(
        source=source,
        compile_id=symbol.compile_id,
        state=symbol.state,
        cause=symbol.cause,
        value=symbol.hint,
        symbol=symbol.name if symbol.state != "static-by-default" else None,
        guards=guards,
        recompiles=[r.compile_id for r in recompiles],
        fixes=_fixes(lookup, symbol, source, recompiles),
        user_frame=_user_frame(symbol, guards),
    )
    compile_ = index.compile.get(symbol.compile_id)
    names = compile_.callee.names if compile_ is not None and compile_.callee else {}
    explanation.user_name = shown_name(source, names)  # x.shape[1]: every view shows it
    explanation.steps = _steps(explanation, recompiles, compile_)
    return explanation


def _latest_symbols(index: FactIndex) -> dict[tuple[FrameKey | None, Source], Symbol]:
    """Each frame's latest symbol (or constant) of each input, the pairs in first-seen order."""
    latest: dict[tuple[FrameKey | None, Source], Symbol] = {}
    frames = {c.compile_id: (c.generation, c.frame_id) for c in index.facts.compiles}
    order = index.order
    for symbol in sorted(index.facts.symbols, key=lambda s: order.get(s.compile_id, -1)):
        frame = frames.get(symbol.compile_id)  # as _frame_of says, for each compile once
        for source in symbol.sources:
            latest[frame, source] = symbol
    return latest


def _frame_recompiles(index: FactIndex) -> dict[tuple[FrameKey | None, str], list[Recompile]]:
    """Each frame's recompiles by the inputs (without ``L[...]``) whose check failed."""
    found: dict[tuple[FrameKey | None, str], list[Recompile]] = {}
    for recompile in index.facts.recompiles:
        frame = _frame_of(index, recompile.compile_id)
        for stripped in dict.fromkeys(Source(s).stripped for s in recompile.sources):
            found.setdefault((frame, stripped), []).append(recompile)
    return found


def explain_sources(facts: Facts) -> Writes:
    """Fill ``facts.explanations``: one per input of each frame, in the order of their compiles.

    An input seen by several frames comes once per frame, the one of the latest compile last:
    a lookup by input alone answers for the latest compile that saw it (a function defined
    again compiles later than its older definition).
    """
    index = FactIndex(facts)
    recompiles = _frame_recompiles(index)
    latest = _latest_symbols(index)
    lookup = CompileLookup(index, (symbol.compile_id for symbol in latest.values()))
    explained = [
        explain(lookup, source, symbol, recompiles.get((frame, Source(source).stripped), []))
        for (frame, source), symbol in latest.items()
    ]
    ordered = sorted(explained, key=lambda e: index.order.get(e.compile_id, -1))
    return Writes().put(facts, "explanations", ordered)

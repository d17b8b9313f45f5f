"""Tell ``why`` of an input that a graph break cost it its dynamism.

Runs after the explanations: an input of a resume frame that a break left constant (or
the marked input of the frame that broke) gets a step naming the break's line and reason,
and the break's fix of that loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from symdebug.fixes.data_dependent_fixes import break_symbol
from symdebug.model.types import (
    Facts,
    Fix,
    GraphBreak,
    LostDynamism,
    SourceExplanation,
    WhyStep,
)
from symdebug.processors.explanations import fix_step
from symdebug.processors.writes import Writes


@dataclass(slots=True)
class _Steps:
    """An explanation's steps and fixes as this pass extends them (new lists)."""

    steps: list[WhyStep]
    fixes: list[Fix]

    def add_fix(self, fix: Fix) -> None:
        """The fix and its step, unless the explanation has it already."""
        if fix not in self.fixes:
            self.fixes.append(fix)
            self.steps.append(fix_step(fix))


def break_step(graph_break: GraphBreak, lost: LostDynamism) -> WhyStep:
    """One step: where the graph broke, and which size arrived as a constant."""
    resumed = ", ".join(lost.resume_sources)
    marked = "marked dynamic" if lost.marked else "dynamic"
    text = (
        f"graph break at {graph_break.where} ({graph_break.reason}): {lost.source} was "
        f"{marked} ({lost.symbol}) in compile {graph_break.compile_id}, the resume frame's "
        f"compile {lost.resume_compile} got {resumed} = {lost.value} as a constant"
    )
    return WhyStep("line", text, frame=graph_break.user_frame)


def _affected(facts: Facts) -> dict[str, list[tuple[GraphBreak, LostDynamism]]]:
    """Source -> the breaks that lost it (on either side of the break)."""
    found: dict[str, list[tuple[GraphBreak, LostDynamism]]] = {}
    for graph_break in facts.graph_breaks:
        for lost in graph_break.lost:
            for source in {lost.source, *lost.resume_sources}:
                found.setdefault(source, []).append((graph_break, lost))
    return found


def _add(steps: _Steps, graph_break: GraphBreak, lost: LostDynamism) -> None:
    steps.steps.append(break_step(graph_break, lost))
    for fix in graph_break.fixes[-1:]:  # the last one is the lost dynamism's
        steps.add_fix(fix)


#: How a data-dependent step begins (``why`` shows these steps).
DATA_DEPENDENT = "data-dependent at"


def data_dependent_step(graph_break: GraphBreak, symbol: str) -> WhyStep:
    """One step: where torch could not decide an expression on the input's unbacked symbol."""
    outcome = "the compile failed" if graph_break.failed else "the graph broke"
    text = (
        f"{DATA_DEPENDENT} {graph_break.where}: torch could not decide "
        f"{graph_break.expression} ({symbol} has no value at compile time), {outcome} "
        f"in compile {graph_break.compile_id}"
    )
    return WhyStep("line", text, frame=graph_break.user_frame)


def _data_dependent(facts: Facts) -> dict[str, list[tuple[GraphBreak, str]]]:
    """Source -> the data-dependent breaks on that input's unbacked symbol (any compile)."""
    found: dict[str, list[tuple[GraphBreak, str]]] = {}
    symbols = {(str(s.compile_id), s.name): s for s in facts.symbols if s.state == "unbacked"}
    for graph_break in facts.graph_breaks:
        symbol = break_symbol(graph_break, symbols)
        if symbol is None:
            continue
        for source in symbol.sources:
            found.setdefault(source, []).append((graph_break, symbol.name))
    return found


def _add_data_dependent(steps: _Steps, graph_break: GraphBreak, name: str) -> None:
    steps.steps.append(data_dependent_step(graph_break, name))
    for fix in graph_break.fixes:
        steps.add_fix(fix)


def explain_graph_breaks(facts: Facts) -> Writes:
    """Add each graph break's loss (and each data-dependent break) to the inputs it concerns."""
    affected = _affected(facts)
    data_dependent = _data_dependent(facts)
    changed: list[tuple[SourceExplanation, _Steps]] = []
    for explanation in facts.explanations:
        losses = affected.get(explanation.source, [])
        unknowns = data_dependent.get(explanation.source, [])
        if not losses and not unknowns:
            continue
        steps = _Steps(list(explanation.steps), list(explanation.fixes))
        for graph_break, lost in losses:
            _add(steps, graph_break, lost)
        for graph_break, name in unknowns:
            _add_data_dependent(steps, graph_break, name)
        changed.append((explanation, steps))
    rows = [(steps.steps, steps.fixes) for _, steps in changed]
    return Writes().rows(("steps", "fixes"), [e for e, _ in changed], rows)

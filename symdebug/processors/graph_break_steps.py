"""Tell ``why`` of an input that a graph break cost it its dynamism.

Runs after the explanations: an input of a resume frame that a break left constant (or
the marked input of the frame that broke) gets a step naming the break's line and reason,
and the break's fix of that loss.
"""

from __future__ import annotations

from symdebug.fixes.data_dependent_fixes import break_symbol
from symdebug.model.types import Facts, GraphBreak, LostDynamism, SourceExplanation, WhyStep
from symdebug.processors.explanations import fix_step


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


def _add(explanation: SourceExplanation, graph_break: GraphBreak, lost: LostDynamism) -> None:
    explanation.steps.append(break_step(graph_break, lost))
    for fix in graph_break.fixes[-1:]:  # the last one is the lost dynamism's
        if fix not in explanation.fixes:
            explanation.fixes.append(fix)
            explanation.steps.append(fix_step(fix))


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


def _add_data_dependent(explanation: SourceExplanation, graph_break: GraphBreak, name: str) -> None:
    explanation.steps.append(data_dependent_step(graph_break, name))
    for fix in graph_break.fixes:
        if fix not in explanation.fixes:
            explanation.fixes.append(fix)
            explanation.steps.append(fix_step(fix))


def explain_graph_breaks(facts: Facts) -> None:
    """Add each graph break's loss (and each data-dependent break) to the inputs it concerns."""
    affected = _affected(facts)
    data_dependent = _data_dependent(facts)
    for explanation in facts.explanations:
        for graph_break, lost in affected.get(explanation.source, []):
            _add(explanation, graph_break, lost)
        for graph_break, name in data_dependent.get(explanation.source, []):
            _add_data_dependent(explanation, graph_break, name)

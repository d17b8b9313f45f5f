"""Tell ``why`` of an input that a graph break cost it its dynamism.

Runs after the explanations: an input of a resume frame that a break left constant (or
the marked input of the frame that broke) gets a step naming the break's line and reason,
and the break's fix of that loss.
"""

from __future__ import annotations

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


def explain_graph_breaks(facts: Facts) -> None:
    """Add each graph break's loss to the explanation of the inputs it concerns."""
    affected = _affected(facts)
    for explanation in facts.explanations:
        for graph_break, lost in affected.get(explanation.source, []):
            _add(explanation, graph_break, lost)

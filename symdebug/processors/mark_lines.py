"""A recompile a mark caused points at the line that marked (``Recompile.user_frame``).

A live capture records each ``torch._dynamo.mark_*`` call (:mod:`symdebug.hooks.mark_hook`):
the mark on the same dim whose tensor had the size the failed entry compiled for (for a
``mark_dynamic`` range, whose bounds are the range's) is the one.  A log records no marks:
the caller's own source then shows the nearest such call before the compiled call.
"""

from __future__ import annotations

import ast

from symdebug.fixes.bounds import parse_range
from symdebug.model.index import FactIndex
from symdebug.model.types import Facts, Frame, MarkSite, Recompile, Specialization
from symdebug.processors.fixes import reason_check
from symdebug.processors.writes import Writes
from symdebug.torchtext.source_text import parsed_source, source_line

#: The marking function behind each cause a mark decides.
MARKING = {
    "mark_static": "mark_static",
    "mark_dynamic_range": "mark_dynamic",
    "mark_dynamic_violated": "mark_dynamic",
}


def link_marks(facts: Facts) -> Writes:
    """Point each recompile a mark caused at the line that made the mark, where known."""
    index = FactIndex(facts)
    marked = [
        (recompile, found)
        for recompile in facts.recompiles
        if (found := _marking_line(facts.marks, recompile, index)) is not None
    ]
    return Writes().set("user_frame", [r for r, _ in marked], [frame for _, frame in marked])


def link_marked_dims(facts: Facts) -> Writes:
    """Point each dim a ``mark_static`` held at the line that marked it, where recorded.

    The first line that used the size inside the compiled function is not where the user
    decided it: torch's account names the mark.  A log records no marks (and torch's own
    log drops the line that called a compiled function), so there it stays unknown.
    """
    marked = [
        (spec, found)
        for spec in facts.specializations
        if (found := _spec_marking_line(facts.marks, spec)) is not None
    ]
    return Writes().set("user_frame", [s for s, _ in marked], [frame for _, frame in marked])


def _spec_marking_line(marks: list[MarkSite], spec: Specialization) -> Frame | None:
    """The recorded ``mark_static`` of a dim it held: of the size it held, else the last."""
    dim = spec.source.dim
    if spec.cause != "mark_static" or dim is None:
        return None
    alike = [m for m in marks if m.function == "mark_static" and m.dim == dim]
    fitting = [m for m in alike if dim < len(m.shape) and m.shape[dim] == spec.value]
    return (fitting or alike)[-1].frame if alike else None


def _marking_line(marks: list[MarkSite], recompile: Recompile, index: FactIndex) -> Frame | None:
    """The line that made the mark behind a recompile, or None (no mark, or none found)."""
    function = MARKING.get(recompile.cause)
    dim = recompile.sources[0].dim if recompile.sources else None
    if function is None or dim is None:
        return None
    found = _recorded(marks, recompile, index, function, dim)
    return found or _written(recompile, index, function, dim)


def _recorded(
    marks: list[MarkSite], recompile: Recompile, index: FactIndex, function: str, dim: int
) -> Frame | None:
    """The last recorded mark on this dim that fits what the failed entry saw, else any."""
    alike = [m for m in marks if m.function == function and m.dim == dim]
    fitting = [m for m in alike if _fits(m, recompile, index)]
    return (fitting or alike)[-1].frame if alike else None


def _fits(mark: MarkSite, recompile: Recompile, index: FactIndex) -> bool:
    """A range mark with the failed range's bounds; a static mark of the size compiled for."""
    if recompile.cause == "mark_dynamic_range" and recompile.reasons:
        bounds = parse_range(reason_check(recompile.reasons[0]))
        return bounds is not None and (mark.min, mark.max) == bounds[1:]
    entry = index.compile.get(recompile.failed_entry or "")
    source = recompile.sources[0]
    seen = [d.value for d in (entry.inputs if entry else []) if d.source == source]
    return bool(seen) and mark.dim < len(mark.shape) and mark.shape[mark.dim] == seen[0]


def _written(recompile: Recompile, index: FactIndex, function: str, dim: int) -> Frame | None:
    """From a log: the nearest ``function(..., dim)`` before the call, in the caller's code."""
    compile_ = index.compile.get(recompile.compile_id)
    caller = compile_.caller if compile_ is not None else None
    if caller is None:
        return None
    calls = [line for line in _mark_calls(caller.filename, function, dim) if line <= caller.lineno]
    if not calls:
        return None
    text = source_line(caller.filename, calls[-1])
    return Frame(caller.filename, calls[-1], caller.name, text)


def _mark_calls(filename: str, function: str, dim: int) -> list[int]:
    """The lines of a file that call ``function`` with ``dim`` as the second argument."""
    tree = parsed_source(filename)  # a log's own: none (a document depends on the log alone)
    if tree is None:
        return []
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _calls(node, function) and _dim_of(node) == dim
    )


def _calls(node: ast.Call, function: str) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == function


def _dim_of(node: ast.Call) -> int | None:
    args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "index")]
    value = args[0] if args else None
    return value.value if isinstance(value, ast.Constant) and type(value.value) is int else None

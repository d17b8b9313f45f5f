"""The session's fixes as changes a replay can apply, or why one cannot be.

A fix is read with the fact it answers (its frame, its input, its user line): a setting is
set; a mark is made on that input at each call of that frame; a change in the caller
(``n = torch.as_tensor(n)``) converts the argument at each call; a change inside the
function is an AST rewrite of the function's source, swapped in for the replay.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from symdebug._torch.running import missing_release
from symdebug.live.caller_conversions import is_caller_conversion
from symdebug.live.changes import (
    Change,
    Conversion,
    FrameRef,
    Mark,
    MarkFunction,
    setting_change,
)
from symdebug.live.fix_context import FixContext
from symdebug.live.rewrite_changes import rewrite_change
from symdebug.live.trials import Candidate, NotTried
from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Facts
from symdebug.queries.constants import constants

#: ``torch.compile(dynamic=True)`` for every frame: the broadest candidate, tried last.
WHOLE_PROGRAM = {"torch._dynamo.config.assume_static_by_default": False}
#: Settings that express a mark: a replay makes the mark itself instead.
MARK_SETTINGS = ("torch.compiler.config.dynamic_sources", "torch.compiler.config.unbacked_sources")
#: A float stays a constant on the first compile even with ``specialize_float=False``
#: (static by default), and ``dynamic_sources`` names no float (torch 2.13): only the whole
#: program dynamic keeps it symbolic from the first call.
FLOATS = {
    "torch._dynamo.config.specialize_float": False,
    "torch._dynamo.config.assume_static_by_default": False,
}
#: Dynamo's logging functions it moves after the graph instead of breaking it.
REORDERABLE = "torch._dynamo.config.reorderable_logging_functions"
REORDERABLE_PRINT = f"{REORDERABLE}.add(print)"
_MARKERS: dict[str, MarkFunction] = {
    "maybe_mark_dynamic": "maybe_mark_dynamic",
    "mark_dynamic": "mark_dynamic",
    "mark_unbacked": "mark_unbacked",
}


def whole_program() -> Candidate:
    """``dynamic=True`` for every frame, as one candidate."""
    return (setting_change(WHOLE_PROGRAM),)


def frame_ref(compile_: Compile | None) -> FrameRef | None:
    """The compiled function's file name and def line (a module's ``forward``)."""
    if compile_ is None:
        return None
    callee = compile_.callee
    where = callee if callee is not None and callee.filename else compile_
    return FrameRef(Path(where.filename).name, where.lineno) if where.filename else None


def contexts(facts: Facts) -> Iterator[FixContext]:
    """Every fix against a recompile or a graph break, most specific first, with its fact."""
    index = FactIndex(facts)
    for recompile in facts.recompiles:
        frame = frame_ref(index.compile.get(recompile.compile_id))
        spec = recompile.specialization
        source = spec.source if spec else (recompile.sources[0] if recompile.sources else None)
        guard_frame = recompile.guard.user_frame if recompile.guard else None
        user = spec.user_frame if spec and spec.user_frame else guard_frame
        for fix in [*recompile.fixes, *(spec.fixes if spec else [])]:
            yield FixContext(fix, frame, source, user, recompile.cause)
    for graph_break in facts.graph_breaks:
        frame = frame_ref(index.compile.get(graph_break.compile_id))
        for fix in graph_break.fixes:
            yield FixContext(fix, frame, None, graph_break.user_frame, "graph_break")


def _marks_in(code: str) -> list[tuple[MarkFunction, str, int]]:
    """``(function, name, dim)`` of each ``torch._dynamo...mark_*(name, dim)`` in the code."""
    found = []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        function = _MARKERS.get(node.func.attr)
        arguments = node.args
        dim = getattr(arguments[1], "value", None) if len(arguments) == 2 else None
        if function and isinstance(dim, int):
            found.append((function, ast.unparse(arguments[0]), dim))
    return found


def _mark_sources(context: FixContext, calls: int) -> list[tuple[str, int]]:
    """Each marked tensor's Dynamo name and dim, in the order of the fix's mark calls.

    From the fix's own setting (``L['keys']:1,L['values']:1``), else the fact's input.
    """
    for name in MARK_SETTINGS:
        items = [i.strip() for i in str(context.fix.settings.get(name, "")).split(",")]
        named = [i.rpartition(":") for i in items if ":" in i]
        if len(named) == calls and all(dim.isdigit() for _, _, dim in named):
            return [(tensor, int(dim)) for tensor, _, dim in named]
    source = context.source
    if calls == 1 and source is not None and source.tensor is not None and source.dim is not None:
        return [(source.tensor, source.dim)]
    return []


def mark_change(context: FixContext) -> Change | None:
    """A fix that marks inputs (or replaces a mark the user made) as a replay makes it."""
    fix = context.fix
    calls = _marks_in(fix.code)
    sources = _mark_sources(context, len(calls)) if calls else []
    if not sources:
        return None
    marks: list[Mark] = []
    for (function, _, _), (tensor, dim) in zip(calls, sources, strict=True):
        if fix.explanation.startswith("instead of torch._dynamo.mark_static"):
            marks.append(Mark("unmark_static", tensor, dim, context.frame))
        if context.cause == "mark_dynamic_violated":
            marks.append(Mark("unmark_dynamic", tensor, dim, context.frame))
        marks.append(Mark(function, tensor, dim, context.frame))
    others = {k: v for k, v in fix.settings.items() if k not in MARK_SETTINGS}
    return Change("mark", fix.code, others, tuple(marks))


def conversion_change(context: FixContext) -> Change | None:
    """``n = torch.as_tensor(n)`` "in the caller": the argument converted at each call."""
    fix = context.fix
    source = context.source
    if fix.kind != "code" or "in the caller" not in fix.explanation or source is None:
        return None
    try:
        statement = ast.parse(fix.code).body
    except SyntaxError:
        return None
    if len(statement) != 1 or not isinstance(statement[0], ast.Assign):
        return None
    target = statement[0].targets[0]
    if not isinstance(target, ast.Name) or str(source) != f"L['{target.id}']":
        return None
    if not is_caller_conversion(statement[0].value, target.id):
        return None  # a saved session's text: only the conversions symdebug writes are run
    conversion = Conversion(str(source), target.id, ast.unparse(statement[0].value), context.frame)
    return Change("code", fix.code, conversions=(conversion,))


def changes_of(context: FixContext) -> list[Change | NotTried]:
    """The changes a replay makes for this fix, or why none can be made.

    Dynamo's reorderable print is a setting, and the fix's other half (remove the print)
    a rewrite: both are tried.
    """
    fix = context.fix
    missing = missing_release(fix.needs)
    if missing:
        return [NotTried(fix, missing)]
    found = mark_change(context) or conversion_change(context)
    if found is not None:
        return [found]
    if fix.code == REORDERABLE_PRINT:
        setting = Change("setting", fix.code, {REORDERABLE: {print}})
        return [setting, rewrite_change(context)]
    if fix.kind != "code" and fix.settings:
        return [Change("setting", fix.code, dict(fix.settings))]
    return [rewrite_change(context)]


def plan_candidates(facts: list[Facts]) -> tuple[list[Candidate], list[NotTried]]:
    """Distinct candidates of every fix, then the whole-program one; and the fixes not tried."""
    found: dict[str, Candidate] = {}
    not_tried: dict[str, NotTried] = {}
    every = ((c, change) for one in facts for c in contexts(one) for change in changes_of(c))
    for context, change in every:
        if isinstance(change, NotTried):
            not_tried.setdefault(context.fix.code, change)
        else:
            found.setdefault(change.key, (change,))
    if any(c.kind == "float" for one in facts for c in constants(one)):
        floats = setting_change(FLOATS)
        found.setdefault(floats.key, (floats,))
    found.setdefault(whole_program()[0].key, whole_program())
    return list(found.values()), list(not_tried.values())

"""The words of a compile budget's failure: each count over its limit, its first excess.

The first excess is said in full: its cause, the failed check in the user's names
(``x.shape[0] > 4``, never sympy's ``Eq(...)`` nor Dynamo's ``L['x']`` or ``___stack0``),
the user line of the check, the user line that called the compiled function, and the
best fix.  Every other item counted gets one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import PurePosixPath
from typing import get_args

from symdebug.fixes.fix_text import fix_lines
from symdebug.fixes.guard_text import guard_text
from symdebug.model.index import FactIndex
from symdebug.model.library_paths import library_path
from symdebug.model.names import frame_title, input_names, user_name
from symdebug.model.types import Compile, Facts, Fix, Frame, GraphBreak, Recompile, Specialization
from symdebug.model.values import Cause, posix_path
from symdebug.queries.budget import Budget, BudgetKind, Counted, Excess, excesses
from symdebug.torchtext.break_frames import compiled_frames
from symdebug.torchtext.own_code import is_own_code, library_of, user_line
from symdebug.torchtext.reasons import Reason, identity_change, parse_reason

#: Items listed one line each below the first excess, at most.
MAX_LISTED = 12

#: What each cause means, in a few words.
CAUSE_SAID: dict[str, str] = {
    "user_branch": "the code branches on it (an if or a comparison in Python)",
    "op_requirement": "an operation needs this exact size",
    "int_specialized": "an int the code uses as a Python value (a loop count, an index): "
    "a constant in each compile",
    "zero_one": "a size of 0 or 1, which torch specializes",
    "duck_sizing": "sizes equal at the compile shared one symbol (duck sizing)",
    "static_by_default": "a size, int or float is a constant in its first compile (static by "
    "default), and it changed",
    "inductor": "Inductor needed a fixed size",
    "backward": "the backward graph needed a fixed size",
    "mark_dynamic_violated": "a dim marked dynamic was specialized",
    "mark_static": "a dim marked static changed",
    "length": "the length of a list, tuple or dict changed",
    "identity": "another object, type or value than the compile saw",
    "dynamic_false": "compiled with dynamic=False: a size or int that changes recompiles",
    "dtype": "a tensor of another dtype than the compile saw",
    "strides": "a tensor of another memory layout (strides) than the compile saw",
    "requires_grad": "a tensor whose requires_grad differs from the compile's",
    "device": "a tensor on another device than the compile saw",
    "dispatch_keys": "a tensor with other dispatch keys (inference mode, a subclass)",
    "global_state": "torch's global state changed (grad mode, autocast, default dtype, ...)",
    "mark_dynamic_range": "a size left the range of its mark_dynamic(min=, max=), or a call "
    "declared another range (torch 2.15)",
    "static_sources": "listed in torch.compiler.config.static_sources: held static over "
    "automatic dynamic (torch 2.15)",
    "dynamic_shapes": "STATIC in torch.compile(dynamic_shapes=...): each value compiles "
    "(torch 2.14)",
}

_NOUNS: dict[BudgetKind, tuple[str, str]] = {
    "recompiles": ("recompile", "recompiles"),
    "graph_breaks": ("graph break", "graph breaks"),
    "specializations": ("specialization", "specializations"),
    "compiles": ("compile", "compiles"),
}


def budget_message(facts: Facts, budget: Budget) -> str | None:
    """Why ``facts`` exceed ``budget``, or None when they keep to it.

    Parameters
    ----------
    facts
        What a capture of the budgeted block saw.
    budget
        The limits.

    Returns
    -------
    str or None
        A headline (each count over its limit), then per count its first excess in full
        and every item counted, one line each.
    """
    found = excesses(facts, budget)
    if not found:
        return None
    index = FactIndex(facts)
    lines = [_headline(found, budget)]
    for excess in found:
        lines += excess_lines(excess, index)
    return "\n".join(lines)


def _plural(count: int, kind: BudgetKind) -> str:
    one, many = _NOUNS[kind]
    return f"{count} {one if count == 1 else many}"


def _headline(found: list[Excess], budget: Budget) -> str:
    made = ", ".join(_plural(len(e.items), e.kind) for e in found)
    return f"compile budget exceeded: {made} (budget: {budget})"


def excess_lines(excess: Excess, index: FactIndex) -> list[str]:
    """One count over its limit: its first excess in full, then every item counted.

    Parameters
    ----------
    excess
        The count over its limit.
    index
        The facts it was counted in.

    Returns
    -------
    list of str
        The lines, the first unindented.
    """
    one, many = _NOUNS[excess.kind]
    first = excess.first
    head = f"{one} {_item_title(excess.kind, first)}"
    limit = f"{excess.limit} {one if excess.limit == 1 else many}"
    lines = [f"{head} is the first over the limit of {limit}:"]
    lines += [f"  {line}" for line in _details(excess.kind, first, index)]
    lines.append(f"{many} counted ({len(excess.items)}):")
    lines += [f"  {_summary(excess.kind, item, index)}" for item in excess.items[:MAX_LISTED]]
    if len(excess.items) > MAX_LISTED:
        lines.append(f"  ... and {len(excess.items) - MAX_LISTED} more")
    return lines


def _item_title(kind: BudgetKind, item: Counted) -> str:
    compile_ = item.compile
    frame = f" of {frame_title(compile_)}" if compile_ is not None else ""
    if kind == "graph_breaks":
        return f"at {_break_short(_break(item))}{_in_frame(compile_)}"
    if kind == "specializations":
        said = user_name(_spec(item).source, _names(compile_))
        return f"of {said}{_in_frame(compile_)}"
    return f"{compile_.compile_id if compile_ else '?'}{frame}"


def _in_frame(compile_: Compile | None) -> str:
    return f" in {frame_title(compile_)}" if compile_ is not None else ""


# ---- the facts of an item, typed ---------------------------------------------------------


def _recompile(item: Counted) -> Recompile:
    assert isinstance(item.fact, Recompile)
    return item.fact


def _break(item: Counted) -> GraphBreak:
    assert isinstance(item.fact, GraphBreak)
    return item.fact


def _spec(item: Counted) -> Specialization:
    assert isinstance(item.fact, Specialization)
    return item.fact


def _names(compile_: Compile | None) -> dict[str, str]:
    return input_names([compile_]) if compile_ is not None else {}


# ---- lines and places --------------------------------------------------------------------


def _short(frame: Frame | None) -> str:
    """``test_model.py:12`` (the file's name only), or ``(unknown line)``."""
    if frame is None:
        return "(unknown line)"
    return f"{PurePosixPath(posix_path(frame.filename)).name}:{frame.lineno}"


def _at(label: str, frame: Frame | None, missing: str) -> list[str]:
    """``label: file:line in fn`` and the line's source below it, or what is missing."""
    if frame is None:
        return [f"{label}: {missing}"]
    where = f"{label}: {frame.filename}:{frame.lineno} in {frame.name}"
    return [where, f"    {frame.line.strip()}"] if frame.line else [where]


def _traced(label: str, frame: Frame | None, stack: list[Frame], caller: Frame | None) -> list[str]:
    """The user line of a traced line, and the library line as context when it is one."""
    own, library = user_line(frame, stack, caller)
    lines = _at(label, own, "(torch recorded no user line for it)")
    if library is not None:
        lines += _at(f"  in {library_of(library.filename)}", library, "")
    return lines


def caller_of(compile_: Compile | None) -> Frame | None:
    """The user's line that called the compiled frame (``Compile.caller``), when known.

    A frozen standard-library frame (``<frozen runpy>``) is no line of the user's.
    """
    frame = compile_.caller if compile_ is not None else None
    return None if frame is None or frame.filename.startswith("<frozen ") else frame


def stack_caller(stack: list[Frame], compile_: Compile | None) -> Frame | None:
    """The frame of ``stack`` that called the compiled frame, when the stack holds both.

    A graph break's stack runs from the program's first frame to the break, through the
    call of the compiled function: a surer call line than torch's logged one.
    """
    if compile_ is None:
        return None
    found = compiled_frames(stack, compile_.name, compile_.filename)
    # the innermost own frame above it: a compiled nn.Module is called through torch's frames
    above = stack[: found[-1]] if found else []
    return next((f for f in reversed(above) if is_own_code(f)), None)


def _break_short(graph_break: GraphBreak) -> str:
    """``train.py:12, in torch/optim/optimizer.py:79 (library)``; the library's line alone."""
    library, user = graph_break.library_frame, graph_break.user_frame
    if library is None:
        return _short(user)
    inside = f"{library_path(library.filename)}:{library.lineno} (library)"
    return inside if user is None else f"{_short(user)}, in {inside}"


def _break_at(graph_break: GraphBreak) -> list[str]:
    """The break's user line (inside the compiled frame), and its library line below it."""
    lines = _at("break at", graph_break.user_frame, "no line of yours inside the compiled frame")
    library = graph_break.library_frame
    return lines + (_at(f"  in {library_of(library.filename)}", library, "") if library else [])


def _called_at(compile_: Compile | None, frame: Frame | None = None) -> list[str]:
    said = frame or caller_of(compile_)
    return _at("called at", said, "(torch logged no user line for the call)")


def _fix(fixes: list[Fix]) -> list[str]:
    if not fixes:
        return ["fix: none suggested"]
    more = len(fixes) - 1
    others = [f"  ({more} more in symdebug's report and why())"] if more else []
    return fix_lines(fixes[0], "") + others


def _cause(cause: str) -> str:
    said = CAUSE_SAID.get(cause)
    return f"cause: {cause}" + (f": {said}" if said else "")


# ---- checks in the user's names ----------------------------------------------------------

#: A source as Dynamo writes it: ``L['x'].size()[0]``, ``L['self']._modules['lin'].k``.
_DYNAMO_SOURCE = re.compile(r"""[LG]\[['"][^'"]+['"]\](?:\.\w+|\(\)|\[\d+\]|\[['"][^'"]+['"]\])*""")
_SIZE_CALL = re.compile(r"\.size\(\)\[(\d+)\]")
#: What only Dynamo's own names hold.
_INTERNAL = ("___", "L[", "G[")


def plain(text: str, names: Mapping[str, str]) -> str:
    """Torch's text with each Dynamo source in the user's names; ``""`` if some stay internal."""
    said = _DYNAMO_SOURCE.sub(lambda m: user_name(m[0], names), text)
    said = _SIZE_CALL.sub(r".shape[\1]", said)
    return "" if any(mark in said for mark in _INTERNAL) else said


def check_said(recompile: Recompile, names: Mapping[str, str]) -> str:
    """The check a recompile's cached entry failed, as Python in the user's names, or ``""``."""
    guard = recompile.guard
    text = guard_text(guard, names) if guard is not None else ""
    if text or not recompile.reasons:
        return text
    return _reason_said(parse_reason(recompile.reasons[0]), recompile, names)


def _reason_said(reason: Reason, recompile: Recompile, names: Mapping[str, str]) -> str:
    if reason.expected is not None and reason.index is not None:
        return f"{_dim_said(reason, recompile, names)} == {reason.expected}"
    if reason.kind == "identity":
        return plain(identity_change(reason), names)
    return plain(reason.code, names)


def _dim_said(reason: Reason, recompile: Recompile, names: Mapping[str, str]) -> str:
    """``x.shape[0]`` (or ``x.stride()[1]``) of a size or stride mismatch."""
    sources = [s for s in recompile.sources if s.is_size]
    if reason.kind == "tensor_mismatch" and sources:
        return user_name(sources[0], names)
    tensor = plain(reason.tensor or "", names) or "a tensor"
    return f"{tensor}.{'shape' if reason.kind == 'tensor_mismatch' else 'stride()'}[{reason.index}]"


def _this_call(recompile: Recompile) -> str:
    """``  (this call: 2)`` where torch's reason says what the call passed."""
    reason = parse_reason(recompile.reasons[0]) if recompile.reasons else None
    actual = reason.actual if reason is not None else None
    return f"  (this call: {actual})" if actual is not None else ""


# ---- the first excess of each kind, in full ----------------------------------------------


def _recompile_details(item: Counted) -> list[str]:
    recompile, compile_ = _recompile(item), item.compile
    check = check_said(recompile, _names(compile_)) or "(not said in the user's names)"
    entry = f"  (required by entry {recompile.failed_entry})" if recompile.failed_entry else ""
    lines = [_cause(recompile.cause), f"failed check: {check}{entry}{_this_call(recompile)}"]
    lines += _check_line(recompile, caller_of(compile_))
    return lines + _called_at(compile_) + _fix(recompile.fixes)


def _check_line(recompile: Recompile, caller: Frame | None) -> list[str]:
    """Where the failed check came from: its guard's user line, else the specialization's."""
    guard = recompile.guard
    if guard is not None and guard.user_frame is not None:
        return _traced("check made at", guard.user_frame, guard.user_stack, caller)
    return _at("check made at", _check_frame(recompile), "(torch recorded no user line for it)")


def _check_frame(recompile: Recompile) -> Frame | None:
    """The user line of the failed check (its guard's, else its specialization's)."""
    guard = recompile.guard
    if guard is not None and guard.user_frame is not None:
        return user_line(guard.user_frame, guard.user_stack, None)[0]
    spec = recompile.specialization
    return spec.user_frame if spec is not None else None


def _break_details(item: Counted) -> list[str]:
    graph_break = _break(item)
    lines = [f"reason: {graph_break.reason}"]
    explained = graph_break.explanation.strip().splitlines()
    lines += [f"torch: {explained[0].strip()}"] if explained else []
    lines.append(f"then: {_after_break(graph_break)}")
    caller = stack_caller(graph_break.user_stack, item.compile) or caller_of(item.compile)
    lines += _break_at(graph_break)
    lines += _called_at(item.compile, caller) + _fix(graph_break.fixes)
    return lines + _broke_again(item)


def _after_break(graph_break: GraphBreak) -> str:
    if graph_break.failed:
        return "the compile failed (fullgraph=True: the call raised)"
    if graph_break.skipped:
        return "the frame is skipped for good (it runs eagerly)"
    frames = ", ".join(graph_break.resume_frames) or "a resume frame"
    return f"the rest of the frame runs in {frames}, compiled on its own"


def _broke_again(item: Counted) -> list[str]:
    if len(item.compiles) < 2:
        return []
    return [f"broke there in {len(item.compiles)} compiles: {', '.join(item.compiles)}"]


def _spec_details(item: Counted) -> list[str]:
    spec, compile_ = _spec(item), item.compile
    names = _names(compile_)
    values = ", ".join(str(v) for v in item.values)
    lines = [
        f"{user_name(spec.source, names)} is a constant ({values}) in compile(s) "
        f"{', '.join(item.compiles)}",
        _cause(spec.cause),
    ]
    texts = [text for guard in spec.guards if (text := guard_text(guard, names))]
    lines += [f"guard: {texts[0]}"] if texts else []
    lines += _spec_line(spec, caller_of(compile_))
    return lines + _called_at(compile_) + _fix(spec.fixes)


def _spec_line(spec: Specialization, caller: Frame | None) -> list[str]:
    guard = next((g for g in spec.guards if g.user_frame is not None), None)
    if guard is not None:
        return _traced("specialized at", guard.user_frame, guard.user_stack, caller)
    return _at("specialized at", spec.user_frame, "(torch recorded no user line for it)")


def _compile_details(item: Counted, index: FactIndex) -> list[str]:
    compile_ = item.compile
    assert compile_ is not None
    recompile = index.recompile.get(compile_.compile_id)
    if recompile is not None:
        head = [f"a recompile: entry {recompile.failed_entry} failed a check"]
        return head + _recompile_details(Counted(recompile, compile_, [], []))
    return [_why_compiled(compile_, index), *_called_at(compile_)]


def _why_compiled(compile_: Compile, index: FactIndex) -> str:
    resumed = [b for b in index.facts.graph_breaks if compile_.compile_id in b.resume_compiles]
    if resumed:
        return f"the resume frame of the graph break at {_break_short(resumed[0])}"
    return "the first compile of this frame (in this block)"


# ---- one line per item counted -----------------------------------------------------------


def _recompile_summary(item: Counted) -> str:
    recompile = _recompile(item)
    check = check_said(recompile, _names(item.compile))
    title = item.compile.title if item.compile else "?"
    where = _short(_check_frame(recompile))
    return f"{recompile.compile_id} {title}: {recompile.cause}: {check or '?'} ({where})"


def _break_summary(item: Counted) -> str:
    graph_break = _break(item)
    return f"{_break_short(graph_break)}: {graph_break.reason} ({', '.join(item.compiles)})"


def _spec_summary(item: Counted) -> str:
    spec, compile_ = _spec(item), item.compile
    said = user_name(spec.source, _names(compile_))
    title = compile_.title if compile_ else "?"
    values = ", ".join(str(v) for v in item.values)
    return f"{said} = {values} in {title}: {spec.cause} ({_short(spec.user_frame)})"


def _compile_summary(item: Counted, index: FactIndex) -> str:
    compile_ = item.compile
    assert compile_ is not None
    recompile = index.recompile.get(compile_.compile_id)
    what = f"recompile, {recompile.cause}" if recompile is not None else "first compile"
    if recompile is None and "resume frame" in _why_compiled(compile_, index):
        what = "resume frame of a graph break"
    return f"{compile_.compile_id} {compile_.title}: {what}"


_DETAILS: dict[BudgetKind, Callable[[Counted], list[str]]] = {
    "recompiles": _recompile_details,
    "graph_breaks": _break_details,
    "specializations": _spec_details,
}
_SUMMARIES: dict[BudgetKind, Callable[[Counted], str]] = {
    "recompiles": _recompile_summary,
    "graph_breaks": _break_summary,
    "specializations": _spec_summary,
}


def _details(kind: BudgetKind, item: Counted, index: FactIndex) -> list[str]:
    """The first excess in full (a compile's needs the index: is it a recompile?)."""
    if kind == "compiles":
        return _compile_details(item, index)
    before = _entry_before(item, index) if kind == "recompiles" else []
    return _DETAILS[kind](item) + before


def _entry_before(item: Counted, index: FactIndex) -> list[str]:
    """Where the entry that failed was compiled before the block: said, as what it is."""
    entry = _recompile(item).failed_entry
    if entry is None or entry in index.compile:
        return []
    return [
        f"entry {entry} was compiled before this block (by an earlier test, a fixture or "
        "setup): Dynamo keeps what was compiled, so this block's call was checked against "
        "it; torch._dynamo.reset() before the block counts the block alone"
    ]


def _summary(kind: BudgetKind, item: Counted, index: FactIndex) -> str:
    return _compile_summary(item, index) if kind == "compiles" else _SUMMARIES[kind](item)


#: Every cause has its words (checked at import: a new cause is a row above).
_UNSAID = set(get_args(Cause)) - {"unknown"} - set(CAUSE_SAID)
if _UNSAID:
    raise ImportError(f"CAUSE_SAID has no words for {sorted(_UNSAID)}")

"""What a diff compares within one frame: its recompiles, specializations and graph breaks.

A frame's compiles on one side are a :class:`FrameRun`.  Each recompile, specialization and
graph break becomes a :class:`~symdebug.model.diff_types.DiffItem` under a key that survives
edits and other sizes: the cause, the input, and the user line's file name, function and
text (never its number, never a value).  :func:`fill_items` puts what one side has and the
other lacks on a :class:`~symdebug.model.diff_types.FrameDiff`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from symdebug.model.diff_types import DiffItem, FrameDiff
from symdebug.model.index import FactIndex
from symdebug.model.names import input_names, user_name
from symdebug.model.types import Compile, Facts, Frame, GraphBreak, Recompile, Specialization
from symdebug.model.values import posix_path
from symdebug.torchtext.own_code import user_line
from symdebug.torchtext.reasons import first_reason_line

#: The line in a resume frame's name: ``torch_dynamo_resume_in_f_at_7``.
_RESUME_LINE = re.compile(r"_at_\d+$")
#: torch's ``0/1: `` before a reason, and its ``  # user line`` comment after the check.
_ENTRY = re.compile(r"^\s*\d+/\d+(?:@\d+)?:\s*")
#: What identifies a user line across edits: file name, function, the line's text.
LineKey = tuple[str, str, str]
#: What identifies an item within its frame on both sides.
ItemKey = tuple[str, ...]


@dataclass(slots=True)
class FrameRun:
    """One frame's compiles on one side, and the facts they hold."""

    title: str
    filename: str
    compiles: list[Compile]
    index: FactIndex
    names: dict[str, str] = field(default_factory=dict)

    @property
    def ids(self) -> set[str]:
        """The frame's compile ids."""
        return {c.compile_id for c in self.compiles}

    @property
    def caller(self) -> Frame | None:
        """The user's line that called the frame first."""
        return next((c.caller for c in self.compiles if c.caller is not None), None)


def frame_key(compile_: Compile) -> tuple[str, str]:
    """``(qualified name, file)`` of a compile's frame, without a resume frame's line."""
    callee = compile_.callee
    filename = callee.filename if callee is not None and callee.filename else compile_.filename
    return _RESUME_LINE.sub("", compile_.title), posix_path(filename)


def frames_of(facts: Facts) -> dict[tuple[str, str], FrameRun]:
    """Each frame's compiles, in order of first compile, keyed by :func:`frame_key`."""
    index = FactIndex(facts)
    frames: dict[tuple[str, str], FrameRun] = {}
    for compile_ in facts.compiles:
        key = frame_key(compile_)
        run = frames.get(key)
        if run is None:
            run = frames[key] = FrameRun(compile_.title, key[1], [], index)
        run.compiles.append(compile_)
    for run in frames.values():
        run.names = input_names(run.compiles)
    return frames


def _line_key(frame: Frame | None) -> LineKey:
    if frame is None:
        return ("", "", "")
    return (PurePosixPath(posix_path(frame.filename)).name, frame.name, frame.line.strip())


def _said(source: str, names: Mapping[str, str]) -> str:
    return user_name(source, names) if source else ""


def _check_text(reasons: list[str]) -> str:
    """The failed check of torch's first reason, without its entry and user-line comment."""
    text = _ENTRY.sub("", first_reason_line(reasons))
    return text.split("  # ", 1)[0].strip()


def _recompile_line(run: FrameRun, recompile: Recompile) -> Frame | None:
    """The user line of the failed check: its guard's, else its specialization's."""
    guard = recompile.guard
    if guard is not None:
        line, _ = user_line(guard.user_frame, guard.user_stack, run.caller)
        if line is not None:
            return line
    spec = recompile.specialization
    return spec.user_frame if spec is not None else None


def _recompile_item(run: FrameRun, recompile: Recompile) -> tuple[ItemKey, DiffItem]:
    line = _recompile_line(run, recompile)
    source = recompile.sources[0] if recompile.sources else ""
    fix = recompile.fixes[0].code if recompile.fixes else ""
    said = _said(source, run.names)
    item = DiffItem(
        "recompile", recompile.cause, _check_text(recompile.reasons), 1, source, said, line, fix
    )
    key: ItemKey = ("recompile", recompile.cause, source, *_line_key(line))
    return key, item


def _recompiles(run: FrameRun) -> tuple[Counter[ItemKey], dict[ItemKey, DiffItem]]:
    """Each kind of recompile of the frame, how many times, and its last occurrence."""
    counts: Counter[ItemKey] = Counter()
    items: dict[ItemKey, DiffItem] = {}
    for compile_ in run.compiles:
        recompile = run.index.recompile.get(compile_.compile_id)
        if recompile is not None:
            key, items[key] = _recompile_item(run, recompile)
            counts[key] += 1
    return counts, items


def _specialization_item(run: FrameRun, spec: Specialization) -> DiffItem:
    fix = spec.fixes[0].code if spec.fixes else ""
    said = _said(spec.source, run.names)
    return DiffItem("specialization", spec.cause, "", 1, spec.source, said, spec.user_frame, fix)


def _specializations(run: FrameRun) -> dict[ItemKey, DiffItem]:
    """Each input the frame's compiles made a constant, with its values and its last cause.

    A library's configuration constant (``Symbol.expected``: a model's ``head_dim``, the
    ``co_argcount`` of a function ``inspect`` reads) is what the program is, never a change.
    """
    items: dict[ItemKey, DiffItem] = {}
    values: dict[ItemKey, list[str]] = {}
    for compile_ in run.compiles:
        for spec in run.index.specializations_of(compile_.compile_id):
            if run.index.is_expected(spec):
                continue
            key: ItemKey = ("specialization", spec.source)
            if key not in items:
                items[key], values[key] = _specialization_item(run, spec), []
            if str(spec.value) not in values[key]:
                values[key].append(str(spec.value))
    for key, item in items.items():
        item.text = f"{item.user_name or item.source} = {', '.join(values[key])}"
    return items


#: An object's address in a reason (``<object at 0x7f...>``): it differs in every run.
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _graph_breaks(run: FrameRun) -> dict[ItemKey, DiffItem]:
    """Each distinct graph break in the frame's compiles (every recompile breaks again)."""
    items: dict[ItemKey, DiffItem] = {}
    for compile_ in run.compiles:
        for graph_break in run.index.graph_breaks.get(compile_.compile_id, []):
            key, item = _break_item(graph_break)
            items.setdefault(key, item)
    return items


def _break_item(graph_break: GraphBreak) -> tuple[ItemKey, DiffItem]:
    reason = graph_break.reason.splitlines()[0] if graph_break.reason else "graph break"
    line = graph_break.user_frame or graph_break.library_frame  # no line of the user's
    fix = graph_break.fixes[0].code if graph_break.fixes else ""
    key = ("graph_break", _ADDRESS.sub("0x", reason), *_line_key(line))
    return key, DiffItem("graph_break", "", reason, 1, "", "", line, fix)


def _counted(counts: Counter[ItemKey], items: dict[ItemKey, DiffItem]) -> list[DiffItem]:
    """The items of ``counts`` (positive counts only), each with its count."""
    return [_with_count(items[key], n) for key, n in counts.items() if n > 0]


def _with_count(item: DiffItem, count: int) -> DiffItem:
    item.count = count
    return item


def _only_in(mine: dict[ItemKey, DiffItem], other: dict[ItemKey, DiffItem]) -> list[DiffItem]:
    return [item for key, item in mine.items() if key not in other]


def _recaused(before: dict[ItemKey, DiffItem], after: dict[ItemKey, DiffItem]) -> list[DiffItem]:
    """Inputs constant on both sides, for another reason after (its text says the old one)."""
    changed = [(before[key], item) for key, item in after.items() if key in before]
    return [
        _with_text(item, f"{item.text} (was {old.cause})")
        for old, item in changed
        if old.cause != item.cause
    ]


def _with_text(item: DiffItem, text: str) -> DiffItem:
    item.text = text
    return item


def fill_items(diff: FrameDiff, before: FrameRun, after: FrameRun) -> None:
    """Set the frame diff's recompiles, specializations and breaks added, removed, changed."""
    counts_before, items_before = _recompiles(before)
    counts_after, items_after = _recompiles(after)
    diff.recompiles_added = _counted(counts_after - counts_before, items_after)
    diff.recompiles_removed = _counted(counts_before - counts_after, items_before)
    specs_before, specs_after = _specializations(before), _specializations(after)
    diff.specializations_added = _only_in(specs_after, specs_before)
    diff.specializations_removed = _only_in(specs_before, specs_after)
    diff.specializations_changed = _recaused(specs_before, specs_after)
    breaks_before, breaks_after = _graph_breaks(before), _graph_breaks(after)
    diff.graph_breaks_added = _only_in(breaks_after, breaks_before)
    diff.graph_breaks_removed = _only_in(breaks_before, breaks_after)


def empty_like(run: FrameRun) -> FrameRun:
    """A frame with no compiles: the side a frame is missing from."""
    return FrameRun(run.title, run.filename, [], run.index)

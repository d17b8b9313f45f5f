"""Plain text: the diff of two runs (``print(symdebug.diff(a, b))``, ``symdebug diff``).

Regressed frames first, each with what made it worse and its new recompiles' causes and user
lines; then frames that got better or changed, frames on one side only, and what was read.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from symdebug.model.diff_types import DiffFacts, DiffItem, FrameDiff, RunDiff, Side
from symdebug.model.types import Frame

_SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def _at(frame: Frame | None) -> str:
    if frame is None:
        return ""
    return f"  @ {PurePosixPath(frame.filename).name}:{frame.lineno} in {frame.name}"


def _item_lines(item: DiffItem, sign: str) -> list[str]:
    count = f"{item.count} " if item.kind == "recompile" else ""
    plural = "s" if item.kind == "recompile" and item.count != 1 else ""
    cause = f" ({item.cause})" if item.cause else ""
    head = f"    {sign} {count}{item.kind.replace('_', ' ')}{plural}{cause}: {item.text}"
    lines = [head + _at(item.line)]
    if item.line is not None and item.line.line:
        lines.append(f"          {item.line.line.strip()}")
    if item.fix and sign == "+":
        lines.append(f"        fix: {item.fix}")
    return lines


def _items(frame: FrameDiff) -> list[str]:
    lines: list[str] = []
    for kind in ("recompiles", "specializations", "graph_breaks"):
        for change in ("added", "removed", "changed"):
            for item in getattr(frame, f"{kind}_{change}", []):
                lines += _item_lines(item, _SIGNS[change])
    return lines


def _frame_lines(frame: FrameDiff) -> list[str]:
    name = f"{frame.title} ({PurePosixPath(frame.filename).name})"
    head = f"  {name}: compiles {frame.compiles_before} -> {frame.compiles_after}"
    if frame.status != "matched" and not frame.regressions:  # all new or all gone: the report
        return [f"{head}  [{frame.status}: on one side only]"]
    if frame.regressions:
        head += f"  REGRESSED: {'; '.join(frame.regressions)}"
    return [head, *_items(frame)]


def _changed(frame: FrameDiff) -> bool:
    return frame.compiles_before != frame.compiles_after or bool(_items(frame))


def _counted(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _side_line(name: str, side: Side) -> list[str]:
    totals = ", ".join(
        _counted(n, word)
        for n, word in (
            (side.compiles, "compile"),
            (side.recompiles, "recompile"),
            (side.graph_breaks, "graph break"),
        )
    )
    lines = [f"  {name}: {totals}"]
    if side.problems:
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(side.problems.items()))
        lines.append(f"    problems reading it: {counts} (the rest was compared)")
        lines += [f"      e.g. {example}" for example in side.problem_examples[:3]]
    return lines


def _run_lines(run: RunDiff) -> list[str]:
    lines = [f"rank {run.rank}:"] if run.rank is not None else []
    lines += _side_line("before", run.before) + _side_line("after", run.after)
    lines += [f"  note: {note}" for note in run.notes]
    ordered = sorted(run.frames, key=lambda f: (not f.regressions, f.status != "matched"))
    for frame in ordered:
        if _changed(frame) or frame.status != "matched":
            lines += _frame_lines(frame)
    same = sum(1 for f in run.frames if f.status == "matched" and not _changed(f))
    if same:
        lines.append(f"  unchanged: {same} frame{'s' if same != 1 else ''}")
    return lines


def _verdict(facts: DiffFacts) -> str:
    regressed = [f for run in facts.runs for f in run.frames if f.regressions]
    matched = sum(run.matched for run in facts.runs)
    new = sum(1 for frame in regressed if frame.status == "added")  # only after, recompiling
    if regressed:
        worse = f"{len(regressed) - new} of {_counted(matched, 'matched frame')} got worse"
        return f"REGRESSED: {worse}" + (f", {_counted(new, 'new frame')} recompiled" if new else "")
    return f"no regression ({_counted(matched, 'frame')} matched)"


def render_diff_text(facts: DiffFacts) -> str:
    """The diff as text: the verdict, then each run's (rank's) changed frames."""
    lines = [f"symdebug diff: {facts.before} -> {facts.after}", _verdict(facts)]
    lines += [f"note: {note}" for note in facts.notes]
    for run in facts.runs:
        lines += _run_lines(run)
    return "\n".join(lines)

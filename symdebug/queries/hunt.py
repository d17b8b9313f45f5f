"""The hunt's rows as the facts alone give them, their order, and their text.

A live session replays each constant (:mod:`symdebug.live.hunt`); a session read from a log
has no workload, so a row is ``needed`` only where torch's guards name the user's code.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from symdebug.model.hunt_types import HuntRow
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.words import counted
from symdebug.queries.constants import FORCED_BY_CODE, Constant


def needed(row: HuntRow, forced: Constant, how: str) -> None:
    """Mark the row needed, with the cause and line that forced the constant."""
    row.verdict, row.cause, row.user_frame = "needed", forced.cause, forced.user_frame
    frame = forced.user_frame
    where = f" at {PurePath(frame.filename).name}:{frame.lineno}" if frame else ""
    row.note = f"{how} ({forced.cause or forced.why_constant}{where})"


def new_row(constant: Constant) -> HuntRow:
    """A row for the constant, untested until something says otherwise."""
    return HuntRow(
        constant.source, constant.user_name, constant.kind, constant.why_constant, "untested"
    )


def unreplayed(constant: Constant, why: str = "no workload to replay") -> HuntRow:
    """A row from the facts alone: needed where torch's guards name the code, else untested."""
    row = new_row(constant)
    if constant.cause in FORCED_BY_CODE:
        needed(row, constant, "from the compile's guards, not replayed")
    else:
        row.note = why
    return row


_ORDER = {"avoidable": 0, "needed": 1, "untested": 2}


@dataclass
class Hunt:
    """The hunt's rows, most compiles saved first; iterate it, print it.

    Attributes
    ----------
    rows
        One :class:`HuntRow` per constant.
    replays
        How many times the workload ran (the unchanged run included).
    changes
        The change each replayed row tried, by its source (a live hunt's; apply one with
        :func:`symdebug.live.apply_changes.changes_applied`).
    """

    rows: list[HuntRow] = field(default_factory=list)
    replays: int = 0
    changes: dict[str, Any] = field(default_factory=dict, repr=False)
    #: How the unchanged replay failed (it raised, or never returned); "" when it ran.
    failed: str = ""

    def __iter__(self) -> Iterator[HuntRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        return hunt_text(self)


def ordered(rows: list[HuntRow]) -> list[HuntRow]:
    """Most compiles saved first; then avoidable, needed, untested."""
    return sorted(rows, key=lambda r: (-r.compiles, _ORDER[r.verdict]))


def hunt_text(hunt: Hunt) -> str:
    """The whole hunt, as ``print(hunt)`` shows it."""
    if hunt.failed:
        head = f"Hunt: the unchanged replay {hunt.failed}, so nothing was replayed"
        return "\n".join([f"{head}; {counted(len(hunt.rows), 'constant')} untested", *_lines(hunt)])
    if not hunt.rows:
        return "Hunt: no input was a constant in any compile"
    counts = {
        v: sum(r.verdict == v for r in hunt.rows) for v in ("avoidable", "needed", "untested")
    }
    saved = sum(r.compiles for r in hunt.rows if r.verdict == "avoidable")
    head = (
        f"Hunt: {counts['avoidable']} avoidable ({counted(saved, 'compile')} saved), "
        f"{counts['needed']} needed, {counts['untested']} untested ({hunt.replays} replays)"
    )
    return "\n".join([head, *_lines(hunt)])


def _lines(hunt: Hunt) -> list[str]:
    width = max((len(r.user_name) for r in hunt.rows), default=0)
    return [row_line(r, width) for r in hunt.rows]


def row_line(row: HuntRow, width: int) -> str:
    """``x.shape[1]  avoidable  saves 2 (3 -> 1 compiles): <change>``, and the like."""
    head = f"  {row.user_name:<{width}}  {row.verdict:<9}"
    if row.verdict == "avoidable":
        return f"{head}  saves {row.compiles} ({row.before} -> {row.after} compiles): {row.change}"
    if row.verdict == "needed":
        line = f"  {row.user_frame.line.strip()}" if row.user_frame and row.user_frame.line else ""
        return f"{head}  {row.note}{line}"
    return f"{head}  {row.note}"

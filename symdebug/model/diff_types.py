"""Typed facts of a diff of two runs: what changed per frame, as plain JSON-able dataclasses.

The diff document is the second document the viewer reads (beside the session's): written by
:func:`diff_document`, with its own version (``diff_version``) and MIME type.  Its JSON Schema
and TypeScript types are generated from these dataclasses (:mod:`symdebug.model.contract`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from symdebug.model.types import Frame

DIFF_VERSION = 1
DIFF_MIME_TYPE = f"application/vnd.symdebug.diff.v{DIFF_VERSION}+json"

#: A frame compiled on both sides, or on one side only.
FrameStatus = Literal["matched", "added", "removed"]
#: What a diff item is.
ItemKind = Literal["recompile", "specialization", "graph_break"]
#: What a side was read from.
SideKind = Literal["log", "session", "ranks", "live"]


@dataclass(slots=True)
class DiffItem:
    """A recompile, specialization or graph break seen on one side of the diff only.

    Attributes
    ----------
    kind
        ``recompile``, ``specialization`` or ``graph_break``.
    cause
        The cause class (empty for a graph break).
    text
        What it is, in the user's names: the failed check (``n == 3``), the specialized
        input with its values (``n = 3, 4``), or the break's reason.
    count
        How many more times this side has it than the other (recompiles; 1 otherwise).
    source
        The input as Dynamo names it (``L['n']``), when there is one.
    user_name
        The input as the user names it (``n``, ``x.shape[0]``).
    line
        The user line that caused it, when known.
    fix
        The suggested fix, as code, when there is one.
    """

    kind: ItemKind
    cause: str
    text: str
    count: int = 1
    source: str = ""
    user_name: str = ""
    line: Frame | None = None
    fix: str = ""


@dataclass(slots=True)
class FrameDiff:
    """One compiled frame on both sides (matched by qualified name and file), or on one."""

    title: str
    filename: str
    status: FrameStatus
    compiles_before: int
    compiles_after: int
    recompiles_added: list[DiffItem] = field(default_factory=list)
    recompiles_removed: list[DiffItem] = field(default_factory=list)
    specializations_added: list[DiffItem] = field(default_factory=list)
    specializations_removed: list[DiffItem] = field(default_factory=list)
    #: Inputs constant on both sides for another reason (the item has the new cause; its
    #: text says the old one): neither gained nor lost.
    specializations_changed: list[DiffItem] = field(default_factory=list)
    graph_breaks_added: list[DiffItem] = field(default_factory=list)
    graph_breaks_removed: list[DiffItem] = field(default_factory=list)
    #: Why the frame regressed (``compiles 2 -> 5``, ``new specialization of n``); empty
    #: when it did not.  Only a matched frame can regress.
    regressions: list[str] = field(default_factory=list)

    @property
    def regressed(self) -> bool:
        """True when the frame compiles more, or gained a specialization or a graph break."""
        return bool(self.regressions)


@dataclass(slots=True)
class Side:
    """What one side of the diff was read from, its totals and the problems found reading it."""

    label: str
    kind: SideKind
    compiles: int = 0
    recompiles: int = 0
    graph_breaks: int = 0
    problems: dict[str, int] = field(default_factory=dict)
    problem_examples: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RunDiff:
    """The diff of one pair of runs: one rank of two rank folders, or two single runs."""

    rank: int | None
    before: Side
    after: Side
    frames: list[FrameDiff] = field(default_factory=list)
    #: Frames found on both sides.
    matched: int = 0
    notes: list[str] = field(default_factory=list)
    #: True when any frame regressed.
    regressed: bool = False


@dataclass(slots=True)
class DiffFacts:
    """The diff of two runs (two logs, saved sessions or rank folders), rank by rank."""

    before: str
    after: str
    runs: list[RunDiff] = field(default_factory=list)
    #: Ranks on one side only, sides of different kinds: said once, for the whole diff.
    notes: list[str] = field(default_factory=list)
    regressed: bool = False


def diff_document(facts: DiffFacts) -> dict[str, Any]:
    """The diff as the viewer reads it: ``diff_version``, then every field of the facts."""
    return {"diff_version": DIFF_VERSION, **dataclasses.asdict(facts)}

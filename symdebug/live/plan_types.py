"""What a fix-plan search finds: each candidate's trial, the fixes not tried, the plan.

Shared by the search (:mod:`symdebug.live.plan_search`), the candidates
(:mod:`symdebug.live.candidates`), the verdicts (:mod:`symdebug.live.verdicts`) and the
plan's text (:mod:`symdebug.live.fix_plan_text`): here, none imports another for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symdebug.live.apply_changes import changes_applied
from symdebug.live.changes import Change, settings_of
from symdebug.live.fix_plan_text import plan_code, plan_text
from symdebug.live.replay import Replay
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import Fix

#: One candidate: the changes a replay makes together.
Candidate = tuple[Change, ...]


@dataclass
class Trial:
    """One candidate and what replaying with it measured."""

    changes: Candidate
    replay: Replay
    better: bool
    why_not: str = ""

    @property
    def settings(self) -> dict[str, Any]:
        """The candidate's torch settings."""
        return settings_of(self.changes)


@dataclass
class NotTried:
    """A fix no replay could apply, and why (a change in the caller, an odd branch)."""

    fix: Fix
    why: str


@dataclass
class FixPlan:
    """The verified changes for a workload, with the compiles before and after.

    Attributes
    ----------
    changes
        Every verified change (settings, marks, rewrites), in the order to apply them.
    settings
        The changes' torch settings, ``{dotted torch config name: value}``.
    before, after
        Compiles per frame without and with the changes.
    errors_before, errors_after
        What raised (the workload, failed compiles) without and with them.
    verified
        True when the replay with the changes had fewer compiles, no new error, and
        outputs equal to the unchanged run's (``allclose``).
    outputs_note
        Why outputs were not compared, when they were not.
    tried
        Every candidate replayed, in order, with what it measured.
    not_tried
        The fixes no replay could apply, each with why.
    """

    changes: list[Change]
    before: dict[str, int]
    after: dict[str, int]
    errors_before: list[str]
    errors_after: list[str]
    verified: bool
    outputs_compared: bool = True
    outputs_note: str = ""
    tried: list[Trial] = field(default_factory=list)
    not_tried: list[NotTried] = field(default_factory=list)

    @property
    def settings(self) -> dict[str, Any]:
        """The verified changes' torch settings."""
        return settings_of(tuple(self.changes))

    @contextmanager
    def applied(self) -> Iterator[None]:
        """Apply every verified change for the block (code swapped in); undo all after."""
        with changes_applied(tuple(self.changes)):
            yield

    def code(self) -> str:
        """The changes as the user would write them, with the diff of each rewrite."""
        return plan_code(self)

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        return plan_text(self)

"""What a fix-plan search measured: each candidate's trial, the fixes not tried, the plan's record.

Plain records that the search (:mod:`symdebug.live.plan_search`), the candidates
(:mod:`symdebug.live.candidates`), the verdicts (:mod:`symdebug.live.verdicts`) and the
plan's text (:mod:`symdebug.live.fix_plan_text`) share; the plan the user holds
(:class:`symdebug.live.plan_types.FixPlan`) adds what it does with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symdebug.live.changes import Change, settings_of
from symdebug.live.replay import Replay
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
class PlanRecord:
    """What a fix plan measured (its fields are documented on ``FixPlan``)."""

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
    #: How the replays ran (``each in a fresh process (spawn; ...)``); ``""``: not said.
    replayed_in: str = ""

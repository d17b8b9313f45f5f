"""A fix's verdict: what replaying it measured, written on the fix.

``Fix.verified``, ``Fix.effect`` and ``Fix.diff`` come from one place: a plan's trials are
read once (:func:`verdicts_of`, called by :func:`symdebug.live.fix_plan.fix_plan`), then
set on every facts that hold the fixes (:func:`apply_verdicts`).  A live session's facts
are rebuilt as compiles arrive, so it keeps the verdicts (:class:`KeepsVerdicts`) and sets
them again on each rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import Replay
from symdebug.live.trials import Trial
from symdebug.model.types import Facts, Fix

#: A fix's verdict, by its code: (verified, measured effect or why not tried, diff, the
#: compiles the replay saved or None).
Verdicts = dict[str, tuple[bool | None, str, str, int | None]]


@runtime_checkable
class KeepsVerdicts(Protocol):
    """A session whose facts are rebuilt (a live one): it sets the verdicts on each rebuild."""

    def keep_verdicts(self, verdicts: Verdicts) -> None:
        """Keep ``verdicts`` for the facts built from now on."""


def effect(before: Replay, trial: Trial) -> str:
    """What a candidate's replay measured, in one line."""
    text = f"measured: {before.total} -> {trial.replay.total} compiles"
    return text if trial.better else f"{text}: {trial.why_not}"


def all_fixes(facts: Facts) -> Iterable[Fix]:
    """Every fix object the facts hold, on any fact."""
    records = (facts.guards, facts.symbols, facts.specializations, facts.recompiles)
    for items in (*records, facts.graph_breaks, facts.changes):
        for item in items:
            yield from item.fixes


def verdicts_of(plan: FixPlan) -> Verdicts:
    """What each fix's change measured alone (or combined) against the unchanged run.

    Candidates alone are replayed first and judged against the unchanged run; a later
    combination (judged against the best so far) never overrides it.  Where two changes
    apply one fix (the session's frame and the replay's, a notebook cell run again), the
    one that helped speaks for it.
    """
    baseline = Replay((), compiles=plan.before, errors=plan.errors_before)
    verdicts: Verdicts = {}
    for trial in plan.tried:
        for change in trial.changes if len(trial.changes) == 1 else ():
            diff = change.rewrite.diff() if change.rewrite is not None else ""
            if verdicts.get(change.fix_code, (False,))[0] is not True:
                saved = baseline.total - trial.replay.total
                verdicts[change.fix_code] = (trial.better, effect(baseline, trial), diff, saved)
    for skipped in plan.not_tried:
        verdicts.setdefault(skipped.fix.code, (None, skipped.why, "", None))
    return verdicts


def apply_verdicts(facts: Facts, verdicts: Verdicts) -> int:
    """Set ``verified``, ``effect``, ``diff`` and ``saved`` on each fix a plan tried or not."""
    marked = 0
    for fix in all_fixes(facts):
        verdict = verdicts.get(fix.code)
        if verdict is not None:
            fix.verified, fix.effect, fix.diff, fix.saved = verdict
            marked += 1
    return marked

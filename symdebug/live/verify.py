"""``fix_plan``: verify the suggested fixes by replaying the user's calls in this process."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from symdebug.live.fix_plan import FixPlan, Trial, candidates, search_plan
from symdebug.live.replay import Replay, Workload, others_detached, replay
from symdebug.model.types import Facts, Fix


def effect(before: Replay, trial: Trial) -> str:
    """What a candidate's replay measured, in one line."""
    text = f"{before.total} -> {trial.replay.total} compiles"
    return text if trial.better else f"{text}: {trial.why_not}"


def all_fixes(facts: Facts) -> Iterable[Fix]:
    """Every fix object the facts hold, on any fact."""
    records = (facts.guards, facts.symbols, facts.specializations, facts.recompiles)
    for items in (*records, facts.graph_breaks):
        for item in items:
            yield from item.fixes


#: A replayed candidate's verdict, by its settings' key: (verified, measured effect).
Verdicts = dict[str, tuple[bool, str]]


def settings_key(settings: dict[str, Any]) -> str:
    """One candidate's settings as a key, independent of their order."""
    return repr(sorted(settings.items()))


def verdicts_of(plan: FixPlan) -> Verdicts:
    """What each candidate replayed alone (or combined) measured against the unchanged run.

    Candidates alone are replayed first and judged against the unchanged run; a later
    combination with the same settings (judged against the best so far) never overrides it.
    """
    baseline = Replay({}, compiles=plan.before, errors=plan.errors_before)
    verdicts: Verdicts = {}
    for trial in plan.tried:
        verdicts.setdefault(settings_key(trial.settings), (trial.better, effect(baseline, trial)))
    return verdicts


def apply_verdicts(facts: Facts, verdicts: Verdicts) -> int:
    """Set ``verified`` and ``effect`` on each fix whose settings were replayed."""
    marked = 0
    for fix in all_fixes(facts):
        verdict = verdicts.get(settings_key(fix.settings)) if fix.settings else None
        if verdict is not None:
            fix.verified, fix.effect = verdict
            marked += 1
    return marked


def fix_plan(
    workload: Workload,
    *,
    facts: Facts | None = None,
    max_replays: int = 12,
    progress: bool = True,
) -> FixPlan:
    """Replay ``workload`` under each suggested fix's settings; return the verified plan.

    Parameters
    ----------
    workload
        A no-argument callable that makes the calls again (it may build the model and call
        ``torch.compile`` itself); what it returns is compared between runs.
    facts
        A session's facts whose fixes are candidates too (and get ``verified`` set).
    max_replays
        At most this many runs of the workload, the unchanged one included.
    progress
        Show a progress bar on stderr while replaying.
    """
    seen: list[Facts] = [facts] if facts is not None else []

    def proposals(baseline: Replay) -> list[dict[str, Any]]:
        seen.append(baseline.facts or Facts())
        return candidates(seen)

    with others_detached():
        plan = search_plan(
            partial(replay, workload), proposals, max_replays=max_replays, progress=progress
        )
    verdicts = verdicts_of(plan)
    for one in seen:
        apply_verdicts(one, verdicts)
    return plan

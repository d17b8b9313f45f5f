"""``fix_plan``: verify the suggested fixes by replaying the user's calls in forked children."""

from __future__ import annotations

from collections.abc import Iterable

from symdebug.live.candidates import plan_candidates
from symdebug.live.fix_plan import Candidate, FixPlan, NotTried, Trial, search_plan
from symdebug.live.replay import TIMEOUT_S, Replay, Workload, isolated_replay
from symdebug.model.types import Facts, Fix


def effect(before: Replay, trial: Trial) -> str:
    """What a candidate's replay measured, in one line."""
    text = f"measured: {before.total} -> {trial.replay.total} compiles"
    return text if trial.better else f"{text}: {trial.why_not}"


def all_fixes(facts: Facts) -> Iterable[Fix]:
    """Every fix object the facts hold, on any fact."""
    records = (facts.guards, facts.symbols, facts.specializations, facts.recompiles)
    for items in (*records, facts.graph_breaks):
        for item in items:
            yield from item.fixes


#: A fix's verdict, by its code: (verified, measured effect or why not tried, diff).
Verdicts = dict[str, tuple[bool | None, str, str]]


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
                verdicts[change.fix_code] = (trial.better, effect(baseline, trial), diff)
    for skipped in plan.not_tried:
        verdicts.setdefault(skipped.fix.code, (None, skipped.why, ""))
    return verdicts


def apply_verdicts(facts: Facts, verdicts: Verdicts) -> int:
    """Set ``verified``, ``effect`` and ``diff`` on each fix a plan replayed or could not."""
    marked = 0
    for fix in all_fixes(facts):
        verdict = verdicts.get(fix.code)
        if verdict is not None:
            fix.verified, fix.effect, fix.diff = verdict
            marked += 1
    return marked


def fix_plan(
    workload: Workload,
    *,
    facts: Facts | None = None,
    max_replays: int = 12,
    progress: bool = True,
    timeout: float = TIMEOUT_S,
) -> FixPlan:
    """Replay ``workload`` under each suggested fix; return the verified plan.

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
    timeout
        Seconds one replay may take; a replay past it is stopped and said to be.
    """
    seen: list[Facts] = [facts] if facts is not None else []
    skipped: list[NotTried] = []

    def proposals(baseline: Replay) -> list[Candidate]:
        seen.append(baseline.facts or Facts())
        planned, not_tried = plan_candidates(seen)
        skipped.extend(not_tried)
        return planned

    def runner(changes: Candidate) -> Replay:
        return isolated_replay(workload, changes, timeout=timeout)

    plan = search_plan(runner, proposals, max_replays=max_replays, progress=progress)
    plan.not_tried = skipped
    verdicts = verdicts_of(plan)
    for one in seen:
        apply_verdicts(one, verdicts)
    return plan

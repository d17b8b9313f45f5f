"""Find the changes that remove the most recompiles, proven by replaying the user's calls.

The candidates are the fixes the session suggests, as a replay can apply them (settings,
marks made at each call, rewritten functions: :mod:`symdebug.live.candidates`), plus
``dynamic=True`` for the whole program.  Each is replayed alone; the ones that help are
combined greedily; the smallest plan with the fewest compiles, no new error and the same
outputs wins.  Nothing is verified that was not replayed.
"""

from __future__ import annotations

from collections.abc import Callable

from symdebug.live.candidates import plan_candidates
from symdebug.live.changes import combined
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import Replay
from symdebug.live.replay_search import Runner, Search
from symdebug.live.trials import Candidate, NotTried, Trial
from symdebug.model.types import Facts

MAX_REPLAYS = 12


def _smallest_best(trials: list[Trial]) -> list[Trial]:
    """Helpful trials: fewest compiles, then fewest changes and settings, then most specific.

    Candidates come most specific first (the whole-program setting last), and the sort is
    stable, so a tie goes to the narrower fix.
    """
    return sorted(
        (t for t in trials if t.better),
        key=lambda t: (t.replay.total, len(t.changes), len(t.settings)),
    )


def _combine(search: Search, ranked: list[Trial]) -> Trial | None:
    """The best single candidate, with each other helpful one added while it helps."""
    if not ranked:
        return None
    best = ranked[0]
    for other in ranked[1:]:
        joined = combined(best.changes, other.changes)
        if joined is None or search.left <= 0 or search.replayed(joined):
            continue  # a replayed combination (a fix's own pair of changes) counts as it was
        trial = search.trial(joined, best.replay.total)
        best = trial if trial.better else best
    return best


def search_plan(
    runner: Runner,
    proposals: Callable[[Replay], list[Candidate]],
    *,
    max_replays: int = MAX_REPLAYS,
    progress: bool = True,
    compare_outputs: bool = True,
) -> FixPlan:
    """Replay the unchanged run, each candidate, then combinations; return the best plan."""
    search = Search(runner, budget=max_replays, progress=progress, compare=compare_outputs)
    baseline = search.baseline
    planned = proposals(baseline)
    search.progress.total = min(max_replays, 1 + 2 * len(planned))
    for changes in planned:
        if search.left <= 0:
            break
        search.trial(changes, baseline.total)
    best = _combine(search, _smallest_best(search.tried))
    search.close()
    after = best.replay if best is not None else baseline
    return FixPlan(
        changes=list(best.changes) if best is not None else [],
        before=baseline.compiles,
        after=after.compiles,
        errors_before=baseline.errors,
        errors_after=after.errors,
        verified=best is not None,
        outputs_compared=search.compare,
        outputs_note=search.outputs_note,
        tried=search.tried,
    )


def search_fixes(
    runner: Runner, known: list[Facts], *, max_replays: int = MAX_REPLAYS, progress: bool = True
) -> tuple[FixPlan, list[Facts]]:
    """The plan from the fixes of ``known`` and of the unchanged run; every facts read.

    The unchanged run's facts are read once it ran: a script's or a workload's own fixes
    are candidates even without a session.  The plan says which fixes no replay could apply.
    """
    seen = list(known)
    skipped: list[NotTried] = []

    def proposals(baseline: Replay) -> list[Candidate]:
        seen.append(baseline.facts or Facts())
        planned, not_tried = plan_candidates(seen)
        skipped.extend(not_tried)
        return planned

    plan = search_plan(runner, proposals, max_replays=max_replays, progress=progress)
    plan.not_tried = skipped
    return plan, seen

"""Find the changes that remove the most recompiles, proven by replaying the user's calls.

The candidates are the fixes the session suggests, as a replay can apply them (settings,
marks made at each call, rewritten functions: :mod:`symdebug.live.candidates`), plus
``dynamic=True`` for the whole program.  Each is replayed alone; the ones that help are
combined greedily; the smallest plan with the fewest compiles, no new error and the same
outputs wins.  Nothing is verified that was not replayed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symdebug.live.changes import Change, candidate_key, combined, setting_change, settings_of
from symdebug.live.outputs import outputs_match
from symdebug.live.replay import Replay
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import Fix
from symdebug.model.words import counted

#: One candidate: the changes a replay makes together.
Candidate = tuple[Change, ...]
#: One run of the user's calls under a candidate (in a forked child or a fresh process).
Runner = Callable[[Candidate], Replay]
#: ``torch.compile(dynamic=True)`` for every frame: the broadest candidate, tried last.
WHOLE_PROGRAM = {"torch._dynamo.config.assume_static_by_default": False}
MAX_REPLAYS = 12


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
        from symdebug.live.apply_changes import changes_applied

        with changes_applied(tuple(self.changes)):
            yield

    def code(self) -> str:
        """The changes as the user would write them, with the diff of each rewrite."""
        from symdebug.live.fix_plan_text import plan_code

        return plan_code(self)

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        from symdebug.live.fix_plan_text import plan_text

        return plan_text(self)


def whole_program() -> Candidate:
    """``dynamic=True`` for every frame, as one candidate."""
    return (setting_change(WHOLE_PROGRAM),)


def judge(baseline: Replay, run: Replay, best: int, *, compare: bool = True) -> str:
    """Why ``run`` is not an improvement over ``best`` compiles; "" when it is.

    Outputs are compared only when both runs finished: a run that raised has none.
    """
    new_errors = [e for e in run.errors if e not in baseline.errors]
    if new_errors:
        return f"new error: {new_errors[0]}"
    if not baseline.finished:
        return "the unchanged run did not finish: no outputs to compare with"
    finished = not run.errors and not baseline.errors
    if compare and finished and run.uncomparable:
        return f"outputs not compared: {run.uncomparable}"
    if compare and finished and not outputs_match(baseline.outputs, run.outputs):
        return "outputs differ from the unchanged run"
    if run.total >= best:
        return f"{counted(run.total, 'compile')}, not fewer than {best}"
    return ""


class Search:
    """The replays of one plan search, with progress and a budget."""

    def __init__(self, runner: Runner, *, budget: int, progress: bool, compare: bool) -> None:
        self.runner, self.budget, self.compare = runner, budget, compare
        self.progress = _progress(budget, progress)
        self.tried: list[Trial] = []
        self.outputs_note = ""
        self.extra_runs = 0
        self.baseline = self.run((), "unchanged")
        if self.baseline.uncomparable and compare:
            self.compare, self.outputs_note = False, self.baseline.uncomparable

    def run(self, changes: Candidate, label: str) -> Replay:
        """One replay, counted on the progress bar."""
        self.progress.set_description(f"replaying: {label}"[:70])
        result = self.runner(changes)
        self.progress.update(1)
        return result

    def trial(self, changes: Candidate, best: int) -> Trial:
        """Replay a candidate and judge it against ``best`` compiles; remember it."""
        run = self.run(changes, " + ".join(change.label for change in changes))
        why_not = judge(self.baseline, run, best, compare=self.compare)
        if why_not.startswith("outputs differ") and self._unstable():
            why_not = judge(self.baseline, run, best, compare=False)
        self.tried.append(Trial(changes, run, not why_not, why_not))
        return self.tried[-1]

    def _unstable(self) -> bool:
        """Whether the unchanged run's outputs change between runs (time, randomness).

        Asked once, the first time a candidate's outputs differ; then never compared.
        """
        if self.extra_runs or not self.compare:
            return not self.compare
        self.extra_runs = 1
        again = self.run((), "unchanged, again (outputs differ)")
        if outputs_match(self.baseline.outputs, again.outputs):
            return False
        self.compare = False
        self.outputs_note = "the unchanged run's outputs change from run to run"
        return True

    def replayed(self, changes: Candidate) -> bool:
        """Whether this candidate (or the unchanged run) was replayed already."""
        key = candidate_key(changes)
        return not changes or any(candidate_key(t.changes) == key for t in self.tried)

    @property
    def left(self) -> int:
        """Replays the budget still allows."""
        return self.budget - 1 - self.extra_runs - len(self.tried)

    def close(self) -> None:
        """The progress bar full, whatever total it guessed."""
        self.progress.total = self.progress.n
        self.progress.refresh()
        self.progress.close()


def _progress(total: int, shown: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not shown, file=sys.stderr, leave=False, unit="replay")


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

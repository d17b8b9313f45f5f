"""Replays under a budget, each judged against the unchanged run: what a plan and a hunt share.

A candidate helps when its replay has fewer compiles, no new error, and the outputs of the
unchanged run (compared only when both finished, and only while the unchanged run's outputs
stay the same from run to run).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tqdm import tqdm

from symdebug.live.changes import candidate_key
from symdebug.live.outputs import outputs_match
from symdebug.live.replay import Replay
from symdebug.live.trials import Candidate, Trial
from symdebug.model.words import counted

#: One run of the user's calls under a candidate (in a forked child or a fresh process).
Runner = Callable[[Candidate], Replay]


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
    return tqdm(total=total, disable=not shown, file=sys.stderr, leave=False, unit="replay")

"""Find the settings that remove the most recompiles, proven by replaying the user's calls.

The candidates are the ``settings`` of the fixes the session suggests (each fix says which
torch settings express it), plus ``dynamic=True`` for the whole program.  Each is replayed
alone; the ones that help are combined greedily; the smallest plan with the fewest compiles,
no new error and the same outputs wins.  Nothing is verified that was not replayed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symdebug._torch.settings import settings_applied
from symdebug.live.replay import Replay
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import Facts, Fix

#: One run of the user's calls under some settings (in this process or a fresh one).
Runner = Callable[[dict[str, Any]], Replay]
#: Settings whose values are comma-separated lists: two plans' values are joined.
LIST_SETTINGS = frozenset(
    {"torch.compiler.config.dynamic_sources", "torch.compiler.config.unbacked_sources"}
)
#: ``torch.compile(dynamic=True)`` for every frame: the broadest candidate, tried last.
WHOLE_PROGRAM = {"torch._dynamo.config.assume_static_by_default": False}
MAX_REPLAYS = 12


@dataclass
class Trial:
    """One candidate and what replaying with it measured."""

    settings: dict[str, Any]
    replay: Replay
    better: bool
    why_not: str = ""


@dataclass
class FixPlan:
    """The verified settings for a workload, with the compiles before and after.

    Attributes
    ----------
    settings
        ``{dotted torch config name: value}``; anyone can apply it with ``setattr`` on the
        module, or with :meth:`applied`.
    before, after
        Compiles per frame without and with the settings.
    errors_before, errors_after
        What raised (the workload, failed compiles) without and with them.
    verified
        True when the replay with the settings had fewer compiles, no new error, and
        outputs equal to the unchanged run's (``allclose``).
    tried
        Every candidate replayed, in order, with what it measured.
    """

    settings: dict[str, Any]
    before: dict[str, int]
    after: dict[str, int]
    errors_before: list[str]
    errors_after: list[str]
    verified: bool
    outputs_compared: bool = True
    tried: list[Trial] = field(default_factory=list)
    by_hand: list[Fix] = field(default_factory=list)

    @contextmanager
    def applied(self) -> Iterator[None]:
        """Apply the plan's settings for the block; restore them after."""
        with settings_applied(self.settings):
            yield

    def code(self) -> str:
        """Python that applies the plan for good (paste it before the first compile)."""
        return "\n".join(
            ["import torch", *(f"{name} = {value!r}" for name, value in self.settings.items())]
        )

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        from symdebug.live.fix_plan_text import plan_text

        return plan_text(self)


def merged(plan: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any] | None:
    """``plan`` with ``extra`` added; None when they set one setting to two values."""
    result = dict(plan)
    for name, value in extra.items():
        if name in LIST_SETTINGS and name in result:
            items = [*str(result[name]).split(","), *str(value).split(",")]
            result[name] = ",".join(dict.fromkeys(i.strip() for i in items if i.strip()))
        elif name in result and result[name] != value:
            return None
        else:
            result[name] = value
    return result


def fixes_of(facts: Facts) -> Iterator[Fix]:
    """Every fix the facts suggest against a recompile or a graph break, most specific first."""
    for recompile in facts.recompiles:
        spec = recompile.specialization
        yield from recompile.fixes
        yield from (spec.fixes if spec is not None else [])
    for graph_break in facts.graph_breaks:
        yield from graph_break.fixes


def candidates(facts: Iterable[Facts]) -> list[dict[str, Any]]:
    """Distinct settings of the suggested fixes, then the whole-program one."""
    found: dict[str, dict[str, Any]] = {}
    for fix in (f for one in facts for f in fixes_of(one)):
        if fix.settings:
            found.setdefault(repr(sorted(fix.settings.items())), dict(fix.settings))
    found.setdefault(repr(sorted(WHOLE_PROGRAM.items())), dict(WHOLE_PROGRAM))
    return list(found.values())


def _code_changes(facts: Facts) -> list[Fix]:
    """The distinct fixes that need an edit (no setting expresses them): not replayed."""
    found = {fix.code: fix for fix in fixes_of(facts) if fix.kind == "code"}
    return list(found.values())


def outputs_match(first: Any, second: Any) -> bool:
    """Whether two workloads' outputs are equal (tensors ``allclose``, the rest ``==``)."""
    import torch
    from torch.utils._pytree import tree_flatten

    leaves_a, spec_a = tree_flatten(first)
    leaves_b, spec_b = tree_flatten(second)
    if spec_a != spec_b:
        return False
    for a, b in zip(leaves_a, leaves_b, strict=True):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or not torch.allclose(a, b, rtol=1e-4, atol=1e-5):
                return False
        elif a != b:
            return False
    return True


def judge(baseline: Replay, run: Replay, best: int, *, compare: bool = True) -> str:
    """Why ``run`` is not an improvement over ``best`` compiles; "" when it is.

    Outputs are compared only when both runs finished: a run that raised has none.
    """
    new_errors = [e for e in run.errors if e not in baseline.errors]
    if new_errors:
        return f"new error: {new_errors[0]}"
    finished = not run.errors and not baseline.errors
    if compare and finished and not outputs_match(baseline.outputs, run.outputs):
        return "outputs differ from the unchanged run"
    if run.total >= best:
        return f"{run.total} compiles, not fewer than {best}"
    return ""


class Search:
    """The replays of one plan search, with progress and a budget."""

    def __init__(self, runner: Runner, *, budget: int, progress: bool, compare: bool) -> None:
        self.runner, self.budget, self.compare = runner, budget, compare
        self.progress = _progress(budget, progress)
        self.tried: list[Trial] = []
        self.baseline = self.run({}, "unchanged")

    def run(self, settings: dict[str, Any], label: str) -> Replay:
        """One replay, counted on the progress bar."""
        self.progress.set_description(f"replaying: {label}"[:70])
        result = self.runner(settings)
        self.progress.update(1)
        return result

    def trial(self, settings: dict[str, Any], best: int) -> Trial:
        """Replay a candidate and judge it against ``best`` compiles; remember it."""
        label = ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in settings.items())
        run = self.run(settings, label)
        why_not = judge(self.baseline, run, best, compare=self.compare)
        self.tried.append(Trial(settings, run, not why_not, why_not))
        return self.tried[-1]

    def replayed(self, settings: dict[str, Any]) -> bool:
        """Whether these settings (or the unchanged run's) were replayed already."""
        return not settings or any(t.settings == settings for t in self.tried)

    @property
    def left(self) -> int:
        """Replays the budget still allows."""
        return self.budget - 1 - len(self.tried)


def _progress(total: int, shown: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not shown, file=sys.stderr, leave=False, unit="replay")


def _smallest_best(trials: list[Trial]) -> list[Trial]:
    """Helpful trials, fewest compiles first, then fewest settings, then the most specific.

    Candidates come most specific first (the whole-program setting last), and the sort is
    stable, so a tie goes to the narrower fix.
    """
    return sorted((t for t in trials if t.better), key=lambda t: (t.replay.total, len(t.settings)))


def _combine(search: Search, ranked: list[Trial]) -> Trial | None:
    """The best single candidate, with each other helpful one added while it helps."""
    if not ranked:
        return None
    best = ranked[0]
    for other in ranked[1:]:
        combined = merged(best.settings, other.settings)
        if combined is None or search.left <= 0 or search.replayed(combined):
            continue  # a replayed combination (a fix's own pair of settings) counts as it was
        trial = search.trial(combined, best.replay.total)
        best = trial if trial.better else best
    return best


def search_plan(
    runner: Runner,
    proposals: Callable[[Replay], list[dict[str, Any]]],
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
    for settings in planned:
        if search.left <= 0:
            break
        search.trial(settings, baseline.total)
    best = _combine(search, _smallest_best(search.tried))
    search.progress.close()
    after = best.replay if best is not None else baseline
    return FixPlan(
        settings=best.settings if best is not None else {},
        before=baseline.compiles,
        after=after.compiles,
        errors_before=baseline.errors,
        errors_after=after.errors,
        verified=best is not None,
        outputs_compared=compare_outputs,
        tried=search.tried,
        by_hand=_code_changes(baseline.facts or Facts()),
    )

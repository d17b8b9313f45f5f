"""The text of a fix plan: settings, compiles per frame before and after, errors, trials."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symdebug.live.fix_plan import FixPlan, Trial


def _verdict(plan: FixPlan) -> str:
    if plan.verified:
        compared = ", same outputs" if plan.outputs_compared else " (outputs not compared)"
        return f"verified by replay: fewer compiles, no new error{compared}"
    return "no setting tried removed a recompile without a new error"


def _table(plan: FixPlan) -> list[str]:
    frames = list(dict.fromkeys([*plan.before, *plan.after]))
    width = max([len(f) for f in frames] + [len("frame")])
    rows = [f"  {'frame':<{width}}  before  after"]
    rows += [
        f"  {f:<{width}}  {plan.before.get(f, 0):>6}  {plan.after.get(f, 0):>5}" for f in frames
    ]
    total_before, total_after = sum(plan.before.values()), sum(plan.after.values())
    return [*rows, f"  {'all frames':<{width}}  {total_before:>6}  {total_after:>5}"]


def _errors(label: str, errors: list[str]) -> list[str]:
    if not errors:
        return [f"errors {label}: none"]
    return [f"errors {label} ({len(errors)}):", *(f"  {e}" for e in errors[:5])]


def trial_line(trial: Trial) -> str:
    """One candidate: its settings and what its replay measured."""
    settings = ", ".join(f"{k} = {v!r}" for k, v in trial.settings.items())
    outcome = "helps" if trial.better else trial.why_not
    return f"  {settings}: {trial.replay.total} compiles ({outcome})"


def plan_text(plan: FixPlan) -> str:
    """The whole plan, as ``str(plan)`` prints it."""
    lines = [f"Fix plan: {_verdict(plan)}"]
    if plan.settings:
        lines += ["settings (apply before the first compile):"]
        lines += [f"  {name} = {value!r}" for name, value in plan.settings.items()]
    lines += ["compiles per frame:", *_table(plan)]
    lines += _errors("before", plan.errors_before) + _errors("after", plan.errors_after)
    if plan.tried:
        lines += [f"tried ({len(plan.tried)} replays):", *map(trial_line, plan.tried)]
    if plan.by_hand:
        lines += ["changes to the code (not replayed: they need an edit):"]
        lines += [f"  {fix}" for fix in plan.by_hand]
    return "\n".join(lines)

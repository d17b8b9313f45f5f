"""The text of a fix plan: settings, compiles per frame before and after, errors, trials."""

from __future__ import annotations

from symdebug.live.changes import Change
from symdebug.live.trials import PlanRecord, Trial
from symdebug.model.words import counted


def _verdict(plan: PlanRecord) -> str:
    if plan.verified:
        note = f": {plan.outputs_note}" if plan.outputs_note else ""
        compared = ", same outputs" if plan.outputs_compared else f" (outputs not compared{note})"
        return f"verified by replay: fewer compiles, no new error{compared}"
    if plan.outputs_note:  # say it: a plan that compared nothing is not the same verdict
        note = f"outputs not compared: {plan.outputs_note}"
        return f"no change tried removed a recompile without a new error ({note})"
    return "no change tried removed a recompile without a new error"


def _table(plan: PlanRecord) -> list[str]:
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
    """One candidate: its changes and what its replay measured."""
    changes = " + ".join(change.label for change in trial.changes)
    outcome = "helps" if trial.better else trial.why_not
    return f"  {changes}: {counted(trial.replay.total, 'compile')} ({outcome})"


def change_text(change: Change) -> list[str]:
    """One change as the user would write it; a rewrite as its diff."""
    if change.rewrite is not None:
        diff = change.rewrite.diff().rstrip().splitlines()
        return [
            f"# {change.rewrite.what} (rewrite of {change.rewrite.qualname}):",
            *(f"# {line}" for line in diff),
        ]
    if change.kind == "mark":
        return [f"# before each call:\n{change.code}"]
    if change.conversions:
        return [f"# in the caller, before each call:\n{change.code}"]
    return [change.code]


def plan_code(plan: PlanRecord) -> str:
    """Every verified change, in order, as the user writes it (rewrites as diffs)."""
    if not plan.changes:
        return ""
    body = [line for change in plan.changes for line in change_text(change)]
    return "\n".join(["import torch", *body])


#: How a plan's changes are made: in Python (``str(plan)``), and from the command line.
IN_PYTHON = "plan.applied() makes them for a block"
IN_A_SCRIPT = "written out below, to paste into the script"


def plan_text(plan: PlanRecord, applied: str = IN_PYTHON) -> str:
    """The whole plan, as ``str(plan)`` prints it (``applied``: how its changes are made)."""
    lines = [f"Fix plan: {_verdict(plan)}"]
    if plan.changes:
        lines += [f"changes (in this order; {applied}):"]
        lines += [
            f"  {line}"
            for text in map(change_text, plan.changes)
            for one in text
            for line in one.splitlines()
        ]
    lines += ["compiles per frame:", *_table(plan)]
    lines += _errors("before", plan.errors_before) + _errors("after", plan.errors_after)
    if plan.tried:
        lines += [f"tried ({len(plan.tried)} replays):", *map(trial_line, plan.tried)]
    if plan.replayed_in:
        lines += [f"replays: {plan.replayed_in}"]
    if plan.not_tried:
        lines += ["not tried (no replay could apply them):"]
        lines += [
            f"  {skipped.fix.code.splitlines()[0]}: {skipped.why}" for skipped in plan.not_tried
        ]
    return "\n".join(lines)

"""Replays keep the user's state; marks and code fixes are replayed; bad workloads get verdicts.

Every replay runs in another process (a fresh one by spawn, or a fork proven safe): after
``fix_plan`` or ``hunt`` the user's compiled function keeps its cache entries, the session
its compiles and the program its globals.
Verified plans are applied again in a fresh process (``run_script``), as a user would.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

import pytest
import torch
from programs import PROGRAMS, captured, marked_line, program
from torch._C._dynamo.eval_frame import _debug_get_cache_entry_list

import symdebug
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import STDIN_NOTE
from symdebug.live.stuck_child import innermost_frame
from symdebug.scripts import run_script


def scaled(x: torch.Tensor) -> torch.Tensor:
    return (x * 2).sum(0)


COMPILED = torch.compile(scaled, backend="eager")
CALLS: list[int] = []


def rows_workload() -> list[torch.Tensor]:
    CALLS.append(1)  # a global the replays change in their own process only
    return [COMPILED(torch.ones(n, 3)) for n in (2, 3, 4)]


def entries() -> int:
    return len(_debug_get_cache_entry_list(scaled.__code__))


def test_a_replay_keeps_the_users_compiled_function_and_session() -> None:
    with symdebug.capture() as session:
        rows_workload()
    before = (entries(), [c.compile_id for c in session.compiles], len(CALLS))
    predicted = str(session.predict(x=(3, 3)))
    plan = session.fix_plan(rows_workload, progress=False)
    hunt = session.hunt(rows_workload, progress=False)
    assert plan.verified and len(hunt) == 2
    assert (entries(), [c.compile_id for c in session.compiles], len(CALLS)) == before
    assert str(session.predict(x=(3, 3))) == predicted  # "served by 0/1", as before
    with session.recording():
        COMPILED(torch.ones(3, 3))  # a size it compiled for: nothing compiles
    assert [c.compile_id for c in session.compiles] == before[1]


def plan_of(name: str, **options: Any) -> tuple[FixPlan, symdebug.LiveSession]:
    workload = program(name).workload
    with symdebug.capture() as session:
        workload()
    return session.fix_plan(workload, progress=False, **options), session


def reproduced(name: str, plan: FixPlan) -> None:
    """The verified changes, applied in a fresh process, give the plan's ``after``."""
    fresh = run_script([str(PROGRAMS / f"{name}.py")], tuple(plan.changes))
    assert fresh.errors == plan.errors_after and fresh.compiles == plan.after


def test_a_mark_the_code_undoes_is_measured_not_promised() -> None:
    """``maybe_mark_dynamic(x, 1)``: the branch on the width forces it, so 3 -> 3."""
    plan, session = plan_of("branch_forced")
    width = next(f for r in session.recompiles for f in r.fixes if f.code.endswith("(x, 1)"))
    assert width.verified is False and width.effect.startswith("measured: 3 -> 3 compiles")
    assert "if nothing else forces x.shape[1]" in width.explanation
    assert "goes away" not in width.explanation
    assert [c.code for c in plan.changes] == ["torch._dynamo.maybe_mark_dynamic(x, 0)"]
    reproduced("branch_forced", plan)


def test_a_mark_static_taken_back_at_each_call() -> None:
    plan, _ = plan_of("marked_static")
    assert plan.before == {"scale (marked_static.py:6)": 3}
    assert plan.after == {"scale (marked_static.py:6)": 1}
    functions = [m.function for m in plan.changes[0].marks]
    assert functions == ["unmark_static", "maybe_mark_dynamic"]
    reproduced("marked_static", plan)


def test_an_index_rewrite_is_replayed_and_shown_as_a_diff() -> None:
    plan, session = plan_of("last_token")
    assert plan.verified and sum(plan.after.values()) < sum(plan.before.values())
    rewrite = plan.changes[0].rewrite
    assert rewrite is not None and "doubled[:, -1]" in rewrite.after
    fix = next(f for r in session.recompiles for f in r.fixes if f.code == "doubled[:, -1]")
    assert fix.verified is True and "+    return doubled[:, -1]" in fix.diff
    compile(plan.code(), "<plan>", "exec")  # diffs come as comments: the code still parses
    reproduced("last_token", plan)
    last = program("last_token").last
    original = last.__code__
    with plan.applied():
        assert last.__code__ is not original
    assert last.__code__ is original


def test_a_cond_rewrite_takes_the_value_the_branch_uses() -> None:
    """The branch reads ``h`` (computed inside), never the argument ``x``."""
    plan, session = plan_of("computed_branch")
    rewrite = plan.changes[0].rewrite
    assert rewrite is not None and "torch.cond(h.sum() > 0" in rewrite.after
    assert ", (h,))" in rewrite.after and ", (x," not in rewrite.after
    assert plan.verified and sum(plan.after.values()) == 1
    reproduced("computed_branch", plan)
    line = marked_line("computed_branch", "BRANCH: computed")
    assert session.facts.graph_breaks[0].user_frame.lineno == line


def test_a_print_is_moved_out_by_a_setting_or_removed_by_a_rewrite() -> None:
    plan, _ = plan_of("printed_step")
    removed = next(t for t in plan.tried if t.changes[0].rewrite is not None)
    assert removed.better and 'print("step")' not in removed.changes[0].rewrite.after
    reorder = next(t for t in plan.tried if "reorderable" in t.changes[0].code)
    assert reorder.better and reorder.replay.total < 4
    reproduced("printed_step", plan)


def test_a_workload_that_raises() -> None:
    def failing() -> None:
        raise RuntimeError("the user's program failed")

    plan = symdebug.fix_plan(failing, progress=False)
    assert plan.errors_before == ["RuntimeError: the user's program failed"]
    assert not plan.verified


def forever() -> None:
    """A workload that never returns (module level: sent by reference to a fresh process)."""
    COMPILED(torch.ones(2, 3))
    while True:
        time.sleep(0.1)


def test_a_workload_that_never_returns_is_stopped() -> None:
    COMPILED(torch.ones(2, 3))
    kept = entries()
    started = time.monotonic()
    plan = symdebug.fix_plan(forever, progress=False, timeout=3, max_replays=2)
    # where it was stuck, read from the child before the kill: the sleep of its loop
    at = f'File "{__file__}", line {forever.__code__.co_firstlineno + 4} in forever'
    assert plan.errors_before == [f"did not finish within 3 s (stopped; it was at {at})"]
    assert not plan.verified and time.monotonic() - started < 60
    assert entries() == kept  # the user's compiled function is as it was


def test_the_parents_garbage_is_left_to_the_parent() -> None:
    """A DDP model a capture leaves in a reference cycle: collected in a replay, its Gloo
    process group's destructor waited forever on a condition whose waiters are the parent's
    threads (found in CI: the replay stopped at its deadline, in garbage collection)."""

    def collecting() -> list[torch.Tensor]:
        gc.collect()
        return rows_workload()

    captured("ddp_forward")
    gc.disable()  # the cycle stays for the replays to meet, whenever this process collects
    try:
        plan = symdebug.fix_plan(collecting, progress=False, timeout=30, max_replays=2)
    finally:
        gc.enable()
    assert plan.errors_before == [] and plan.tried[0].replay.errors == []
    assert plan.before == {f"scaled (test_replays.py:{scaled.__code__.co_firstlineno})": 2}


def test_a_child_stuck_in_a_collection_says_what_collected() -> None:
    """The first hundred frames only (faulthandler's limit), so no ``_child`` among them: the
    thread that took the signal is the child's; a collection is said, and what triggered it."""
    builder = '"/site-packages/torch/_dynamo/variables/builder.py"'
    dump = (
        'Thread 0x00007f65696516c0 (most recent call first):\n  File "x.py", line 4 in spin\n\n'
        "Current thread 0x00007f664cc96b80 (most recent call first):\n  Garbage-collecting\n"
        f"  File {builder}, line 1056 in _wrap\n  File {builder}, line 827 in _call_impl\n  ...\n"
    )
    expected = f"garbage collection, called from File {builder}, line 1056 in _wrap"
    assert innermost_frame(dump) == expected
    assert innermost_frame("") == ""


def test_printed_output_that_changes_is_kept_not_compared() -> None:
    def noisy() -> list[torch.Tensor]:
        print(f"started at {time.time()}")
        return rows_workload()

    plan = symdebug.fix_plan(noisy, progress=False, max_replays=3)
    assert plan.verified and plan.outputs_compared
    assert plan.tried[0].replay.printed.startswith("started at")


def test_outputs_that_cannot_be_compared_are_said_so() -> None:
    class Opaque:
        pass

    def opaque() -> Opaque:
        rows_workload()
        return Opaque()

    plan = symdebug.fix_plan(opaque, progress=False, max_replays=3)
    assert plan.verified and not plan.outputs_compared
    assert "Opaque, which has no equality of its own" in plan.outputs_note
    assert "outputs differ" not in str(plan)


def test_a_workload_that_reads_stdin() -> None:
    def asking() -> str:
        rows_workload()
        return input("size? ")

    plan = symdebug.fix_plan(asking, progress=False, max_replays=2)
    assert plan.errors_before and plan.errors_before[0].startswith(STDIN_NOTE)
    assert not plan.verified and "did not finish" in plan.tried[0].why_not


def test_a_script_fix_with_a_rewrite_in_fresh_processes(capsys: pytest.CaptureFixture[str]) -> None:
    from symdebug.cli import main

    assert main(["fix", "--max-replays", "4", str(PROGRAMS / "last_token.py")]) == 0
    out = capsys.readouterr().out
    assert "verified by replay" in out and "+    return doubled[:, -1]" in out


def test_no_fork_still_replays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``os.fork`` is missing (Windows) the replay runs here, and still measures."""
    monkeypatch.setattr("symdebug.live.replay.can_fork", lambda: False)
    plan = symdebug.fix_plan(rows_workload, progress=False, max_replays=3)
    assert plan.verified and sum(plan.after.values()) == 1


def test_the_scripts_folder_is_not_needed(tmp_path: Path) -> None:
    """A replay of a script run elsewhere: its own folder on ``sys.path``, as python does."""
    script = tmp_path / "job.py"
    script.write_text((PROGRAMS / "static_batch.py").read_text())
    fresh = run_script([str(script)], ())
    assert fresh.compiles == {"scale (job.py:6)": 2} and not fresh.errors

"""fix_plan on real programs: each plan replayed here, then re-applied in a fresh process.

Every program lives in tests/data/programs; its ``workload()`` builds what it compiles and
makes the calls.  Each plan's compile counts, frame by frame, are compared with torch's own
(its compilation metrics, one record per frame compile, read by ``tests/torch_compiles.py``):
``before`` with those of the captured run, ``after`` with those of a run here under
``plan.applied()``.  Each test also asserts that no new error came, and that the plan's
changes (settings, marks, rewrites) give the same counts in a new process.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import torch
from programs import PROGRAMS, program
from torch_compiles import TorchCompiles, torch_compiles

import symdebug
from symdebug.live.changes import candidate_key, setting_change
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import Workload
from symdebug.live.verdicts import all_fixes
from symdebug.scripts import run_script

DYNAMIC = "torch.compiler.config.dynamic_sources"


def planned(name: str, **options: object) -> tuple[FixPlan, symdebug.LiveSession]:
    """The session of one run of the program, and the plan its fixes lead to."""
    workload = program(name).workload
    with torch_compiles() as unchanged, symdebug.capture() as session:
        workload()
    plan = session.fix_plan(workload, progress=False, **options)
    assert_torchs_counts(plan, workload, unchanged)
    return plan, session


def assert_torchs_counts(plan: FixPlan, workload: Workload, unchanged: TorchCompiles) -> None:
    """The plan's compiles per frame are torch's: ``before`` those of the unchanged run,
    ``after`` those of a run with the plan's changes applied."""
    assert sorted(plan.before.values()) == unchanged.per_frame(), "before"
    torch._dynamo.reset()
    with torch_compiles() as changed, plan.applied():
        workload()
    torch._dynamo.reset()
    assert changed.total and sorted(plan.after.values()) == changed.per_frame(), "after"


def frame(plan: FixPlan, prefix: str) -> str:
    return next(f for f in plan.before if f.startswith(prefix))


def codes(plan: FixPlan) -> list[str]:
    return [change.code for change in plan.changes]


def assert_reproduced(name: str, plan: FixPlan) -> None:
    """The changes, applied in a fresh process, give the plan's ``after``."""
    fresh = run_script([str(PROGRAMS / f"{name}.py")], tuple(plan.changes))
    assert fresh.errors == plan.errors_after
    assert fresh.compiles == plan.after


def assert_verified(plan: FixPlan) -> None:
    assert plan.verified and plan.changes
    assert sum(plan.after.values()) < sum(plan.before.values())
    assert plan.errors_before == plan.errors_after == []
    ast.parse(plan.code())


def test_static_by_default_batch() -> None:
    plan, session = planned("static_batch")
    assert plan.before == {"scale (static_batch.py:6)": 2}
    assert plan.after == {"scale (static_batch.py:6)": 1}
    assert codes(plan) == ["torch._dynamo.maybe_mark_dynamic(x, 0)"]  # the narrow fix wins
    assert plan.changes[0].kind == "mark" and plan.settings == {}
    assert_verified(plan)
    fix = next(f for f in session.recompiles[0].fixes if f.code == plan.changes[0].fix_code)
    assert fix.verified is True and fix.effect == "measured: 2 -> 1 compiles"
    assert_reproduced("static_batch", plan)


def test_int_used_as_loop_count_has_no_setting_fix() -> None:
    plan, _ = planned("int_loop")
    assert plan.before == plan.after == {"repeat (int_loop.py:6)": 4}
    assert not plan.verified and plan.changes == []
    assert plan.tried and all(not t.better for t in plan.tried)
    converted = next(t for t in plan.tried if t.changes[0].conversions)  # n as a tensor
    assert "torch.as_tensor(n)" in converted.changes[0].code and not converted.better
    assert "no change tried removed a recompile" in str(plan)


def test_duck_sizing() -> None:
    plan, _ = planned("duck_pair")
    assert plan.before == {"combine (duck_pair.py:6)": 2}
    assert plan.after == {"combine (duck_pair.py:6)": 1}
    assert plan.settings == {"torch.fx.experimental._config.use_duck_shape": False}
    assert_verified(plan)
    assert_reproduced("duck_pair", plan)


def test_zero_one() -> None:
    plan, _ = planned("zero_one")
    assert plan.before == {"norm (zero_one.py:6)": 3}
    assert plan.after == {"norm (zero_one.py:6)": 1}
    assert_verified(plan)
    assert_reproduced("zero_one", plan)


def test_mark_dynamic_does_not_reach_the_resume_frame() -> None:
    plan, _ = planned("resume_frame")
    resume = frame(plan, "torch_dynamo_resume_in_step")
    assert plan.before == {"step (resume_frame.py:6)": 1, resume: 2}
    assert plan.after == {"step (resume_frame.py:6)": 1, resume: 1}
    assert "___" not in "".join(codes(plan))  # a name the user can read and write
    assert_verified(plan)
    assert_reproduced("resume_frame", plan)


def test_a_config_objects_int_field_is_no_module_attribute() -> None:
    """Not ``allow_unspec_int_on_nn_module``: the field itself, dynamic from the first call."""
    plan, session = planned("config_attribute")
    assert plan.before == {"split_heads (config_attribute.py:13)": 2}
    assert plan.after == {"split_heads (config_attribute.py:13)": 1}
    assert plan.settings == {DYNAMIC: "L['config'].heads"}
    assert_verified(plan)
    assert_reproduced("config_attribute", plan)
    settings = [f.settings for r in session.recompiles for f in r.fixes]
    assert {"torch._dynamo.config.allow_unspec_int_on_nn_module": True} not in settings


def test_module_int_attribute() -> None:
    """Naming the attribute beats the setting for every module's ints (4 -> 2)."""
    plan, _ = planned("module_attribute")
    assert plan.before == {"Chunked.forward (module_attribute.py:11)": 4}
    assert plan.after == {"Chunked.forward (module_attribute.py:11)": 1}
    assert plan.settings == {DYNAMIC: "L['self'].chunk"}
    module = next(t for t in plan.tried if "allow_unspec_int_on_nn_module" in repr(t.settings))
    assert module.replay.compiles == {"Chunked.forward (module_attribute.py:11)": 2}
    assert_verified(plan)
    assert_reproduced("module_attribute", plan)


def test_module_behind_torchs_wrapper_named_by_its_class() -> None:
    plan, _ = planned("wrapped_module")
    frame = "Encoder.forward (wrapped_module.py:11)"  # not torch's inner (external_utils)
    assert plan.before == {frame: 2}
    assert plan.after == {frame: 1}
    assert_verified(plan)
    assert_reproduced("wrapped_module", plan)


def test_training_step_with_backward() -> None:
    plan, _ = planned("train_step")
    step = "train_step (train_step.py:11)"
    assert plan.before[step] == 2 and plan.after[step] == 1
    assert_verified(plan)
    assert_reproduced("train_step", plan)


@pytest.mark.slow
def test_hugging_face_gpt2_from_config() -> None:
    pytest.importorskip("transformers")
    plan, _ = planned("hf_gpt2", max_replays=4)
    assert sum(plan.before.values()) == 2 and sum(plan.after.values()) == 1, str(plan)
    assert [c.code for c in plan.changes] == ["torch._dynamo.maybe_mark_dynamic(input_ids, 1)"]
    assert_verified(plan)
    assert_reproduced("hf_gpt2", plan)


def test_settings_are_restored_when_the_workload_raises() -> None:
    def failing() -> None:
        raise RuntimeError("the user's program failed")

    before = torch._dynamo.config.assume_static_by_default
    plan = symdebug.fix_plan(failing, progress=False)
    assert plan.errors_before == ["RuntimeError: the user's program failed"]
    assert not plan.verified
    assert torch._dynamo.config.assume_static_by_default == before


def test_plan_applied_is_a_context_manager() -> None:
    duck = setting_change({"torch.fx.experimental._config.use_duck_shape": False})
    plan = FixPlan([duck], {}, {}, [], [], True)
    with plan.applied():
        assert torch.fx.experimental._config.use_duck_shape is False
    assert torch.fx.experimental._config.use_duck_shape is True


def test_cli_fix_prints_the_verified_plan(capsys: pytest.CaptureFixture[str]) -> None:
    from symdebug.cli import main

    assert main(["fix", str(PROGRAMS / "static_batch.py")]) == 0
    out = capsys.readouterr().out
    assert "verified by replay" in out
    assert "scale (static_batch.py:6)       2      1" in out
    assert "torch._dynamo.maybe_mark_dynamic(x, 0)" in out.split("Fix plan")[1]
    # the command line holds no plan object (issue 46, point 19)
    assert "plan.applied()" not in out and "written out below" in out


def test_cli_run_with_fix_reports_then_plans(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from symdebug.cli import main

    report = tmp_path / "report.html"
    script = str(PROGRAMS / "duck_pair.py")
    # Options go before the script: what follows it is the script's own command line.
    assert main(["run", "-o", str(report), "--fix", "--max-replays", "3", script]) == 0
    out = capsys.readouterr().out
    assert report.exists() and "recompiles by cause: duck_sizing 1" in out
    assert "torch.fx.experimental._config.use_duck_shape = False" in out.split("Fix plan")[1]


def test_a_loaded_session_lends_its_fixes(tmp_path: Path) -> None:
    workload = program("duck_pair").workload
    with torch_compiles() as unchanged, symdebug.capture() as live:
        workload()
    live.save(tmp_path / "run.json")
    loaded = symdebug.load(tmp_path / "run.json")
    plan = symdebug.fix_plan(workload, loaded, progress=False, max_replays=3)
    assert_torchs_counts(plan, workload, unchanged)
    assert plan.verified and plan.after == {"combine (duck_pair.py:6)": 1}
    fixes = [f for r in loaded.recompiles for f in r.fixes if f.verified]
    assert fixes and fixes[0].effect == "measured: 2 -> 1 compiles"


def test_a_cache_whose_keys_and_values_grow_together() -> None:
    plan, session = planned("kv_cache")
    assert plan.before == {"attend (kv_cache.py:6)": 2}
    assert plan.after == {"attend (kv_cache.py:6)": 1}
    # torch names only the keys in the recompile reason; marking them alone changes nothing
    assert plan.settings == {DYNAMIC: "L['keys']:1,L['values']:1"}
    keys_only = next(t for t in plan.tried if t.changes[0].code.endswith("(keys, 1)"))
    assert [(m.source, m.dim) for m in keys_only.changes[0].marks] == [("L['keys']", 1)]
    assert not keys_only.better and keys_only.replay.total == 2
    first = session.recompiles[0].fixes[0]
    assert first.verified is True and "(keys.shape[1], values.shape[1])" in first.explanation
    assert_verified(plan)
    assert_reproduced("kv_cache", plan)


def test_a_fix_is_judged_by_its_own_replay_against_the_unchanged_run() -> None:
    """A fix's settings name Dynamo's sources (``L['x']:0``, never torch's check text ``x:0``,
    which matches nothing), and a combination replayed later never overrides its verdict."""
    plan, session = planned("one_row_branch")
    assert plan.before == {"squeeze_or_sum (one_row_branch.py:6)": 3}
    assert_verified(plan)
    named = [
        item.split(":")[0]
        for fix in all_fixes(session.facts)
        for name in (DYNAMIC, "torch.compiler.config.unbacked_sources")
        for item in str(fix.settings.get(name, "")).split(",")
        if item
    ]
    assert named and all(item.startswith("L['") for item in named), named
    pair = {"torch.fx.experimental._config.backed_size_oblivious": True, DYNAMIC: "L['x']:0"}
    both = [f for f in all_fixes(session.facts) if f.settings == pair]
    assert both and all(
        f.verified is True and f.effect == "measured: 3 -> 2 compiles" for f in both
    )
    keys = [candidate_key(t.changes) for t in plan.tried]
    assert len(keys) == len(set(keys))  # no candidate replayed twice
    assert_reproduced("one_row_branch", plan)


def test_a_module_global_int_is_made_dynamic_by_its_source() -> None:
    plan, session = planned("global_int")
    assert plan.before == {"head (global_int.py:8)": 4}
    assert plan.after == {"head (global_int.py:8)": 1}
    assert plan.settings == {DYNAMIC: "G['WIDTH']"}
    assert_verified(plan)
    assert "graph break" not in str(session.why("G['WIDTH']"))
    firsts = [r.fixes[0] for r in session.recompiles]  # each value, not only the first change
    assert len(firsts) == 3 and all(f.settings == {DYNAMIC: "G['WIDTH']"} for f in firsts)
    assert all("automatic dynamic does not make a global" in f.explanation for f in firsts)
    assert_reproduced("global_int", plan)

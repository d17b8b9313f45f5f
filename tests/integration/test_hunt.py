"""The overspecialization hunt, each verdict checked against torch's own compiles.

Torch's truth is taken without symdebug: the user's function compiled with a backend that
records each graph's example inputs (a symbolic size is a ``SymInt`` there), the mark made
by hand before each call, the compiles counted by torch's cache entries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from programs import PROGRAMS, marked_line, program
from torch._C._dynamo.eval_frame import _debug_get_cache_entry_list

import symdebug
from symdebug.model.hunt_types import HuntRow
from symdebug.queries.hunt import Hunt
from symdebug.scripts import run_script


def hunted(name: str, **options: Any) -> tuple[Hunt, symdebug.LiveSession]:
    workload = program(name).workload
    with symdebug.capture() as session:
        workload()
    return session.hunt(workload, progress=False, **options), session


def row(hunt: Hunt, user_name: str) -> HuntRow:
    return next(r for r in hunt if r.user_name == user_name)


class Recorder:
    """A backend that keeps each graph's example inputs: torch's word on what is symbolic."""

    def __init__(self) -> None:
        self.graphs: list[list[Any]] = []

    def __call__(self, gm: torch.fx.GraphModule, inputs: list[Any]) -> Callable[..., Any]:
        self.graphs.append(list(inputs))
        return gm.forward


def torch_truth(mark_dim: int | None) -> tuple[int, list[bool]]:
    """branch_forced's calls, ``x``'s dim marked by hand: (compiles, is that dim symbolic)."""
    head = program("branch_forced").head
    torch._dynamo.reset()
    recorder = Recorder()
    compiled = torch.compile(head, backend=recorder)
    for b, w in program("branch_forced").CALLS:
        x = torch.arange(b * w * 1.0).reshape(b, w)
        if mark_dim is not None:
            torch._dynamo.maybe_mark_dynamic(x, mark_dim)
        compiled(x, 3)
    compiles = len(_debug_get_cache_entry_list(head.__code__))
    sizes = [g[0].shape[mark_dim or 0] for g in recorder.graphs if isinstance(g[0], torch.Tensor)]
    torch._dynamo.reset()
    return compiles, [isinstance(size, torch.SymInt) for size in sizes]


def test_needed_and_avoidable_constants_agree_with_torch() -> None:
    hunt, _ = hunted("branch_forced")
    assert [r.user_name for r in hunt] == ["x.shape[0]", "x.shape[1]", "n"]
    batch, width, n = row(hunt, "x.shape[0]"), row(hunt, "x.shape[1]"), row(hunt, "n")

    compiles, symbolic = torch_truth(0)  # the batch marked by hand: symbolic in every graph
    assert batch.verdict == "avoidable" and all(symbolic)
    assert (batch.before, batch.after, batch.compiles) == (3, compiles, 3 - compiles) == (3, 2, 1)
    assert batch.outputs_equal is True and batch.change == "torch._dynamo.maybe_mark_dynamic(x, 0)"

    compiles, symbolic = torch_truth(1)  # the width marked: the branch makes it 8 again
    assert width.verdict == "needed" and not symbolic[0] and compiles == width.after == 3
    assert width.cause == "user_branch" and width.user_frame is not None
    assert width.user_frame.lineno == marked_line("branch_forced", "FORCES: width")

    # n never varied: it cost no compile, so no replay can call it avoidable (issue 47, 10)
    assert n.verdict == "untested" and n.compiles == 0 and n.kind == "int"
    assert "never varied" in n.note


def test_an_avoidable_change_reapplied_in_a_fresh_process() -> None:
    hunt, _ = hunted("branch_forced")
    batch = row(hunt, "x.shape[0]")
    fresh = run_script([str(PROGRAMS / "branch_forced.py")], (hunt.changes[str(batch.source)],))
    assert fresh.total == batch.after and not fresh.errors


def test_the_hunt_is_in_the_session_and_its_views(tmp_path: Path) -> None:
    hunt, session = hunted("branch_forced")
    assert session.facts.hunt == hunt.rows
    assert "x.shape[1]  needed" in str(session)
    report = session.to_html(tmp_path / "hunt.html").read_text()
    assert '"verdict":"avoidable"' in report.replace(" ", "") or "avoidable" in report


def test_without_a_workload_the_guards_decide_needed() -> None:
    workload = program("last_token").workload
    with symdebug.capture() as session:
        workload()
    hunt = session.hunt()
    length = row(hunt, "h.shape[1]")
    assert length.verdict == "needed" and length.cause == "op_requirement"
    assert "not replayed" in length.note and hunt.replays == 0
    assert all(r.verdict in ("needed", "untested") for r in hunt)


def test_a_loaded_session_hunts_from_its_facts(tmp_path: Path) -> None:
    workload = program("last_token").workload
    with symdebug.capture() as live:
        workload()
    live.save(tmp_path / "run.json")
    loaded = symdebug.load(tmp_path / "run.json")
    assert [(r.user_name, r.verdict) for r in loaded.hunt()] == [
        (r.user_name, r.verdict) for r in live.hunt()
    ]


def test_cli_hunt_prints_rows_and_writes_a_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from symdebug.cli import main

    report = tmp_path / "hunt.html"
    script = str(PROGRAMS / "branch_forced.py")
    assert main(["hunt", "-o", str(report), script]) == 0
    out = capsys.readouterr().out
    assert "Hunt: 1 avoidable (1 compile saved), 1 needed, 1 untested (3 replays)" in out
    assert "x.shape[0]  avoidable  saves 1 (3 -> 2 compiles)" in out
    assert report.exists()


def test_cli_hunt_of_a_missing_script(capsys: pytest.CaptureFixture[str]) -> None:
    from symdebug.cli import main

    assert main(["hunt", "nope.py"]) == 2
    assert "no script 'nope.py'" in capsys.readouterr().err


def test_a_replay_that_fails_leaves_the_row_untested(tmp_path: Path) -> None:
    runs = tmp_path / "runs"  # replays run in forked children: they count in a file

    def flaky() -> list[torch.Tensor]:
        with runs.open("a") as counted:
            counted.write("x")
        if len(runs.read_text()) > 1:
            raise RuntimeError("the replay broke")
        return program("branch_forced").workload()

    with symdebug.capture() as session:
        program("branch_forced").workload()
    hunt = session.hunt(flaky, progress=False)
    assert hunt.rows and all(r.verdict == "untested" for r in hunt)
    raised = [r for r in hunt if "the replay raised: RuntimeError: the replay broke" in r.note]
    # n never varied: no replay was tried for it (issue 47, 10)
    assert raised and all(r in raised or "never varied" in r.note for r in hunt)


def test_a_float_argument_is_hunted_and_planned() -> None:
    """``temperature`` is a constant of the first compile (static by default)."""
    hunt, session = hunted("float_scale")
    temperature = row(hunt, "temperature")
    assert (temperature.kind, temperature.verdict, temperature.compiles) == (
        "float",
        "avoidable",
        1,
    )
    assert hunt.rows[0] is temperature
    plan = session.fix_plan(program("float_scale").workload, progress=False)
    assert plan.verified and plan.after == {"soften (float_scale.py:6)": 1}
    fresh = run_script([str(PROGRAMS / "float_scale.py")], tuple(plan.changes))
    assert fresh.compiles == plan.after


@pytest.mark.slow
def test_hugging_face_gpt2_sequence_length_is_avoidable() -> None:
    pytest.importorskip("transformers")
    hunt, _ = hunted("hf_gpt2", max_replays=8)
    length = row(hunt, "input_ids.shape[1]")
    assert length.verdict == "avoidable" and length.compiles >= 1
    assert hunt.rows[0] is length  # the most compiles saved comes first


def raises_on_replay() -> None:
    raise RuntimeError("the data is gone")


def never_returns() -> None:
    time.sleep(600)


@pytest.mark.parametrize(
    ("replayed", "failed", "options"),
    [
        (raises_on_replay, "raised RuntimeError: the data is gone", {}),
        (never_returns, "did not finish within 30 s (stopped", {"timeout": 30}),
    ],
)
def test_a_failed_unchanged_replay_is_said_and_its_constants_are_untested(
    replayed: Callable[[], None], failed: str, options: dict[str, Any]
) -> None:
    """Issue 46, point 14: never "no input was a constant" when the replay could not run."""
    with symdebug.capture() as session:
        program("branch_forced").workload()
    hunt = session.hunt(replayed, progress=False, **options)
    assert hunt.failed.startswith(failed)
    assert str(hunt).startswith(f"Hunt: the unchanged replay {failed}")
    assert "no input was a constant" not in str(hunt)
    untested = [r for r in hunt.rows if r.verdict == "untested"]
    assert untested, hunt.rows
    assert all(r.note.startswith(f"untested: the unchanged replay {failed}") for r in untested)
    assert {r.verdict for r in hunt.rows} <= {"untested", "needed"}

"""``symdebug.diff`` and ``symdebug diff`` on real runs of one program before and after a code
change, under two torch settings, and of two rank folders (issue 29, point 1).

Each run's compiles per frame are checked against torch's own cache entries first, so the
diff is judged against what torch did, not against symdebug's own reading.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
import torch
from programs import PROGRAMS
from truth import code_of

import symdebug
from symdebug._torch.dynamo_cache import cache_order
from symdebug.cli import main
from symdebug.runs.diff import SessionDiff

#: The program before the change: a size that changes, nothing else.
BEFORE = """
import torch

def step(x):
    y = x * 2
    return y.sum(1)

def run():
    compiled = torch.compile(step, backend="eager")
    for rows in (8, 6, 4, 3):
        compiled(torch.ones(rows, 5))
    return compiled
"""

#: The change: lines added above (every line moves), a branch on the size and a print.
REGRESSED = """
import torch

# a comment, and another, so that every line of step moves down
# (frames are matched by name and file, never by line)

def step(x):
    y = x * 2
    if x.shape[0] > 5:  # the branch: a guard that fails for rows 4
        y = y + 1
    print("rows", x.shape[0])  # the graph break
    return y.sum(1)

def run():
    compiled = torch.compile(step, backend="eager")
    for rows in (8, 6, 4, 3):
        compiled(torch.ones(rows, 5))
    return compiled
"""

#: A change that helps: the size is dynamic from the first call.
IMPROVED = BEFORE.replace(
    "        compiled(torch.ones(rows, 5))",
    "        x = torch.ones(rows, 5)\n"
    "        torch._dynamo.maybe_mark_dynamic(x, 0)\n"
    "        compiled(x)",
)

OTHER_PROGRAM = """
import torch

def other(a):
    return a.cos()

def run():
    compiled = torch.compile(other, backend="eager")
    for n in (3, 4):
        compiled(torch.ones(n))
    return compiled
"""


def _module(folder: Path, source: str) -> ModuleType:
    """The program written as ``folder/model.py`` and imported under a name of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(f"model_{folder.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _captured(folder: Path, source: str) -> tuple[symdebug.LiveSession, int]:
    """A run of the program under capture, and torch's own count of ``step``'s entries."""
    torch._dynamo.reset()
    module = _module(folder, source)
    with symdebug.capture() as session:
        compiled = module.run()
    entries = len(cache_order(code_of(compiled)))
    return session, entries


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each version's run, saved as a session (the folders differ: one checkout per run)."""
    root = tmp_path_factory.mktemp("diff")
    saved = {}
    versions = {"before": BEFORE, "regressed": REGRESSED, "improved": IMPROVED}
    versions["other"] = OTHER_PROGRAM
    for name, source in versions.items():
        session, entries = _captured(root / name, source)
        frames = {c.name for c in session.compiles}
        main_frame = "other" if name == "other" else "step"
        assert sum(c.name == main_frame for c in session.compiles) == entries, frames
        saved[name] = root / f"{name}.symdebug.json"
        session.save(saved[name])
    torch._dynamo.reset()
    return saved


def _frame(diff: SessionDiff, title: str) -> symdebug.runs.diff.FrameDiff:
    (found,) = [f for f in diff.frames if f.title == title]
    return found


def test_a_regression_is_named_with_its_cause_and_line(runs: dict[str, Path]) -> None:
    diff = symdebug.diff(runs["before"], runs["regressed"])
    assert diff.regressed
    step = _frame(diff, "step")
    assert step.status == "matched"  # every line moved, and the folder: still the same frame
    assert (step.compiles_before, step.compiles_after) == (2, 3)
    (branch,) = [r for r in step.recompiles_added if r.cause == "user_branch"]
    assert branch.line is not None and branch.line.line.strip().startswith("if x.shape[0] > 5:")
    assert branch.fix.startswith("torch.cond(")
    (new_break,) = step.graph_breaks_added
    assert new_break.line is not None and "print(" in new_break.line.line
    assert any(r.startswith("compiles 2 -> 3") for r in step.regressions)
    assert any(r.startswith("new graph break") for r in step.regressions)
    text = str(diff)
    assert "REGRESSED" in text and "step (model.py): compiles 2 -> 3" in text
    assert "recompile (user_branch)" in text and "if x.shape[0] > 5:" in text
    resume = [f for f in diff.frames if f.title.startswith("torch_dynamo_resume_in_step")]
    assert [f.status for f in resume] == ["added"]


def test_an_improvement_is_no_regression(runs: dict[str, Path]) -> None:
    diff = symdebug.diff(runs["before"], runs["improved"])
    assert not diff.regressed
    step = _frame(diff, "step")
    assert (step.compiles_before, step.compiles_after) == (2, 1)
    (gone,) = step.recompiles_removed
    assert gone.cause == "static_by_default" and gone.user_name == "x.shape[0]"
    assert not step.recompiles_added and not step.regressions
    # The way back is a regression: the recompile and the batch's specialization return.
    back = symdebug.diff(runs["improved"], runs["before"])
    assert back.regressed
    (spec,) = _frame(back, "step").specializations_added
    assert (spec.cause, spec.text) == ("static_by_default", "x.shape[0] = 8")


def test_same_run_twice_changes_nothing(runs: dict[str, Path]) -> None:
    diff = symdebug.diff(runs["regressed"], runs["regressed"])
    assert not diff.regressed
    assert all(f.status == "matched" and not f.regressions for f in diff.frames)
    assert "no regression (2 frames matched)" in str(diff)


def test_different_programs_match_nothing_and_say_so(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # the other program's frame recompiles: a frame only in AFTER that compiles more than
    # once is a regression (issue 46, point 4), matched or not
    assert main(["diff", str(runs["before"]), str(runs["other"])]) == 1
    out = capsys.readouterr().out
    assert "nothing matched: the two runs share no compiled frame" in out
    diff = symdebug.diff(runs["before"], runs["other"])
    assert {f.status for f in diff.frames} == {"added", "removed"} and diff.regressed
    new = [f for f in diff.frames if f.regressions]
    assert new and all(f.status == "added" and f.compiles_after > 1 for f in new)
    assert new[0].regressions == [f"new frame, compiled {new[0].compiles_after} times"]


def test_cli_exit_status_json_and_html(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "diff.html"
    assert main(["diff", str(runs["before"]), str(runs["regressed"]), "-o", str(page)]) == 1
    assert "REGRESSED" in capsys.readouterr().out
    assert '<script type="application/json" id="symdebug-data">' in page.read_text()
    assert main(["diff", "--json", str(runs["before"]), str(runs["improved"])]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["diff_version"] == 1 and document["regressed"] is False
    assert main(["diff", str(runs["before"]), str(tmp_path / "missing.log")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["diff", str(runs["before"])])
    assert usage.value.code == 2


def test_a_live_session_and_a_saved_one_compare(runs: dict[str, Path], tmp_path: Path) -> None:
    session, _ = _captured(tmp_path / "again", BEFORE)
    diff = symdebug.diff(session, runs["regressed"])
    assert diff.regressed and diff.runs[0].before.kind == "live"
    assert not symdebug.diff(runs["before"], session).regressed


# ---------------------------------------------------------------- logs written by torch


def _trace(folder: Path, source: str, setting: str = "") -> Path:
    """Run the program in a process of its own under TORCH_TRACE, after ``setting`` (a torch
    config assignment); return the log folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.py").write_text(textwrap.dedent(source))
    trace = folder / "trace"
    settings = dict(os.environ, TORCH_TRACE=str(trace), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    script = f"import torch\n{setting}\nimport model\nmodel.run()"
    subprocess.run(
        [sys.executable, "-c", script],
        cwd=folder,
        env=settings,
        check=True,
        timeout=300,
    )
    return trace


def test_logs_under_two_torch_settings(tmp_path: Path) -> None:
    """Automatic dynamic turned off: every size compiles anew (torch's own setting)."""
    before = _trace(tmp_path / "default", BEFORE)
    static = "torch._dynamo.config.automatic_dynamic_shapes = False"
    after = _trace(tmp_path / "static", BEFORE, static)
    diff = symdebug.diff(before, after)
    step = _frame(diff, "step")
    assert (step.compiles_before, step.compiles_after) == (2, 4)
    assert diff.regressed and diff.runs[0].before.kind == "log"
    (added,) = step.recompiles_added
    (removed,) = step.recompiles_removed
    assert (added.cause, added.count, removed.cause, removed.count) == (
        "dynamic_false",
        3,
        "static_by_default",
        1,
    )
    # Constant on both sides, for another reason: neither gained nor lost.
    assert [s.text for s in step.specializations_changed] == [
        "x.shape[0] = 8, 6, 4, 3 (was static_by_default)",
        "x.shape[1] = 5 (was static_by_default)",
    ]
    assert [s.text for s in step.specializations_added] == []
    assert not symdebug.diff(after, before).regressed


def test_a_corrupt_log_on_one_side_is_reported_and_the_rest_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")
    before = _trace(tmp_path / "run", BEFORE)
    (log,) = before.iterdir()
    lines = log.read_text().splitlines(keepends=True)
    damaged = tmp_path / "damaged.log"
    middle = len(lines) // 2
    damaged.write_text("".join([*lines[:middle], "V1202 garbage {not json\n", *lines[middle:]]))
    assert main(["diff", str(before), str(damaged)]) == 0
    out = capsys.readouterr().out
    assert "problems reading it:" in out and "no regression (1 frame matched)" in out


# ---------------------------------------------------------------- rank folders

RANKS_JOB = PROGRAMS / "ranks_job.py"


def _ranks(trace: Path, odd_batch: int) -> Path:
    """A torchrun of ranks_job.py (3 ranks, gloo) where rank 2 sees ``odd_batch`` second."""
    env = dict(os.environ, TORCH_TRACE=str(trace), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    env["RANKS_JOB_ODD_BATCH"] = str(odd_batch)
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=3"]
    command += ["--master_addr=127.0.0.1", f"--master_port={_free_port()}", str(RANKS_JOB)]
    subprocess.run(command, check=True, env=env, timeout=300)
    return trace


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_two_rank_folders_compare_rank_by_rank(tmp_path: Path) -> None:
    before = _ranks(tmp_path / "before", 8)
    after = _ranks(tmp_path / "after", 7)
    diff = symdebug.diff(before, after)
    assert sorted(diff.ranks) == [0, 1, 2]
    assert [r for r, run in diff.ranks.items() if run.regressed] == [2]
    (step,) = diff.ranks[2].frames
    assert (step.compiles_before, step.compiles_after) == (1, 2)
    assert step.recompiles_added[0].cause == "static_by_default"
    assert "rank 2:" in str(diff) and diff.runs[0].after.kind == "ranks"

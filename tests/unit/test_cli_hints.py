"""Issue 32, items 1, 12 and 13: the real command line (a subprocess) on a file that is no
log and on a question it must ask back; counts said in words.  On a missing script (``run``
and ``fix`` import torch first): ``integration/test_cli_hints_torch.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symdebug.model.types import Compile, Facts, Recompile
from symdebug.model.words import counted
from symdebug.renderers.console import render_summary

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
SYMDEBUG = str(Path(sys.executable).with_name("symdebug"))


def _symdebug(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SYMDEBUG, *argv], capture_output=True, text=True, timeout=300, check=False, cwd=cwd
    )


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("symdebug: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


@pytest.mark.parametrize(
    ("command", "default"), [("run", "symdebug-run.html"), ("report", "symdebug-report.html")]
)
def test_run_and_report_name_their_own_default(command: str, default: str) -> None:
    done = _symdebug(command, "--help")
    assert done.returncode == 0 and f"(default: {default})" in " ".join(done.stdout.split())


def test_summary_of_a_file_that_is_no_log(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    err = _one_line_error(_symdebug("summary", str(text)))
    assert "1 line is no TORCH_TRACE record" in err and "is it a TORCH_TRACE log?" in err


def test_why_asks_back_in_cli_syntax() -> None:
    log = str(TRACES / "artifacts.log")
    done = _symdebug("why", log, "x")
    assert done.returncode == 1
    assert f"symdebug why {log} x 0 for x.shape[0]" in done.stderr
    assert f"symdebug why {log} x 1 for x.shape[1]" in done.stderr
    assert "why('x'" not in done.stderr


def test_why_of_a_symbol_points_to_the_summary() -> None:
    log = str(TRACES / "simple.log")
    done = _symdebug("why", log, "1")
    assert done.returncode == 1 and "is a symbol torch created" in done.stderr
    assert f"symdebug summary {log}" in done.stderr and "s.symbols" not in done.stderr


def test_python_api_keeps_the_python_form() -> None:
    import symdebug

    with pytest.raises(KeyError, match=r"why\('x', 0\) for x.shape\[0\]"):
        symdebug.load_trace(TRACES / "artifacts.log").why("x")


def test_summary_says_one_in_the_singular() -> None:
    done = _symdebug("summary", str(TRACES / "export_guard_added.log"))
    assert done.returncode == 0
    assert ": 1 compile, 0 recompiles, 1 guard\n" in done.stdout


def test_one_recompile_and_one_graph_break_frame() -> None:
    compiles = [Compile(f"0/{n}", 0, n, name="f", filename="/w/a.py") for n in (0, 1)]
    facts = Facts(compiles=compiles, recompiles=[Recompile("0/1", "0/0", ["size mismatch"])])
    text = render_summary(facts)
    assert ": 2 compiles, 1 recompile, 0 guards" in text
    assert "frame f (/w/a.py:0): 2 compiles" in text
    facts.compiles = compiles[:1]
    facts.recompiles = []
    assert "frame f (/w/a.py:0): 1 compile\n" in render_summary(facts)


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [(1, "recompile", "1 recompile"), (1, "guard", "1 guard"), (0, "guard", "0 guards"),
     (1, "graph break", "1 graph break"), (2, "specialization", "2 specializations")],
)  # fmt: skip
def test_counted(count: int, noun: str, said: str) -> None:
    assert counted(count, noun) == said

"""Issue 32, item 1: the real command line (a subprocess) on a missing script, or an output
that is a folder, says so in one line and writes nothing.  ``run`` and ``fix`` import torch
before they look at the script (the rest of the command line: ``unit/test_cli_hints.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_run_of_a_missing_script_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "symdebug-report.html").write_text("a report of a log")
    (tmp_path / "symdebug-run.html").write_text("a report of a run")
    err = _one_line_error(_symdebug("run", "nope.py", cwd=tmp_path))
    assert "no script 'nope.py'" in err
    assert (tmp_path / "symdebug-report.html").read_text() == "a report of a log"
    assert (tmp_path / "symdebug-run.html").read_text() == "a report of a run"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "symdebug-report.html",
        "symdebug-run.html",
    ]


def test_run_into_a_folder_fails_before_the_script_runs(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    err = _one_line_error(_symdebug("run", "-o", str(tmp_path), str(script)))
    assert "it is a folder" in err and not (tmp_path / "ran").exists()


def test_fix_of_a_missing_script_is_one_line() -> None:
    assert "no script 'nope.py'" in _one_line_error(_symdebug("fix", "nope.py"))

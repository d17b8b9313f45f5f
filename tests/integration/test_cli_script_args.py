"""What follows the script of ``symdebug run|fix|hunt`` is the script's (issue 46, point 15).

``symdebug hunt script.py -o hunt.html`` used to hand ``-o hunt.html`` to the script and
write nothing.  The command line now refuses an option of symdebug's own command there,
saying both ways to write what was meant, before the script runs; ``--`` passes the rest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = "import sys\nprint('script ran with', sys.argv[1:])\n"


def symdebug(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symdebug", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize(
    ("command", "option"),
    [("hunt", "-o"), ("hunt", "--timeout=5"), ("run", "--output"), ("fix", "--max-replays")],
)
def test_an_option_after_the_script_is_refused_with_both_ways(
    tmp_path: Path, command: str, option: str
) -> None:
    (tmp_path / "s.py").write_text(SCRIPT)
    given = [option] if "=" in option else [option, "9"]
    done = symdebug(tmp_path, command, "s.py", *given)
    assert done.returncode == 2
    assert "script ran" not in done.stdout
    assert f"symdebug {command} {' '.join(given)} s.py" in done.stderr
    assert f"symdebug {command} s.py -- {' '.join(given)}" in done.stderr


def test_after_two_dashes_everything_goes_to_the_script(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(SCRIPT)
    done = symdebug(tmp_path, "run", "-o", "r.html", "s.py", "--", "--output", "x", "--epochs=1")
    assert done.returncode == 0, done.stderr
    assert "script ran with ['--output', 'x', '--epochs=1']" in done.stdout
    assert (tmp_path / "r.html").is_file()


def test_the_scripts_own_options_pass_as_before(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(SCRIPT)
    done = symdebug(tmp_path, "run", "-o", "r.html", "s.py", "--epochs", "1")
    assert done.returncode == 0, done.stderr
    assert "script ran with ['--epochs', '1']" in done.stdout


def test_the_hint_moves_only_symdebugs_options(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(SCRIPT)
    done = symdebug(tmp_path, "run", "-o", "r.html", "s.py", "--epochs", "1", "--redact")
    assert done.returncode == 2
    assert "symdebug run -o r.html --redact s.py --epochs 1" in done.stderr
    assert "symdebug run -o r.html s.py -- --epochs 1 --redact" in done.stderr

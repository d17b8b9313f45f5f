"""Scripts given to ``symdebug run`` and ``symdebug fix`` that are awkward or hostile.

``run`` behaves like ``python script.py`` (its folder on ``sys.path``, ``sys.exit``, threads,
``os._exit``, a fork, a closed stdout, ``os.chdir``) and keeps its capture whatever the
script does.  ``fix`` replays never run modules of the current folder, stop at
``--timeout``, read the same stdin every time, and say when the output changes by itself.
Every command is a real ``symdebug`` process, as a user types it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: ``symdebug ARGS`` as the console script runs it: nothing of the current folder on the path.
SYMDEBUG = "import sys; del sys.path[0]; from symdebug.cli import main; sys.exit(main())"
COMPILE = "torch.compile(lambda x: x * 2, backend='eager')(torch.ones(3))"
#: A batch size that changes: 2 compiles, which marking it dynamic makes 1.
RECOMPILES = """\
import torch
def scale(x):
    return (x * 2).sum(0)
compiled = torch.compile(scale, backend="eager")
def run(sizes):
    return [compiled(torch.arange(n * 3.0).reshape(n, 3)).tolist() for n in sizes]
"""


def symdebug(
    *args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SYMDEBUG, *args],
        cwd=cwd,
        stdin=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def script(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body)
    return path


def test_run_is_python_script_py(tmp_path: Path) -> None:
    """Its folder on the path, ``sys.exit()`` is 0, a thread's late compile is captured."""
    folder = tmp_path / "job"
    script(folder, "helper.py", "SIZE = 3\n")
    job = script(
        folder,
        "job.py",
        "import sys, threading, time, torch, helper\n"
        "def late():\n"
        "    time.sleep(1)\n"
        "    torch.compile(lambda x: x + helper.SIZE, backend='eager')(torch.ones(3))\n"
        "threading.Thread(target=late).start()\n"
        "sys.exit()\n",
    )
    done = symdebug("run", "-o", "run.html", str(job), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 compile, " in done.stdout  # the thread's, made after the script's end
    assert (tmp_path / "run.html").is_file()


def test_run_saves_the_capture_before_os_exit(tmp_path: Path) -> None:
    job = script(tmp_path, "job.py", f"import os, torch\n{COMPILE}\nos._exit(4)\n")
    done = symdebug("run", "-o", "run.html", str(job), cwd=tmp_path)
    assert done.returncode == 4
    assert "1 compile, " in done.stdout and "wrote run.html" in done.stdout
    assert "symdebug-data" in (tmp_path / "run.html").read_text()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")
def test_run_survives_a_fork_a_new_folder_and_a_closed_stdout(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    job = script(
        tmp_path / "job",
        "job.py",
        f"import os, sys, torch\n{COMPILE}\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    print('child')\n"
        "    sys.exit()\n"  # the child comes back to symdebug: it must not report
        "os.waitpid(pid, 0)\n"
        f"os.chdir({str(elsewhere)!r})\n"
        "sys.stdout.close()\n",
    )
    done = symdebug("run", "-o", "run.html", str(job), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("symdebug session") == 1  # the parent's report only
    assert "1 compile, " in done.stdout and "wrote run.html" in done.stdout
    assert (tmp_path / "run.html").is_file() and not (elsewhere / "run.html").exists()


def test_fix_never_imports_the_current_folders_modules(tmp_path: Path) -> None:
    here = tmp_path / "here"
    marker = tmp_path / "imported"
    script(here, "json.py", f"open({str(marker)!r}, 'w').close()\nraise SystemExit('hostile')\n")
    job = script(tmp_path / "job", "job.py", RECOMPILES + "run([4, 8])\n")
    done = symdebug("fix", "--max-replays", "1", str(job), cwd=here)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert "scale (job.py:2)       2" in done.stdout and "errors before: none" in done.stdout


def test_fix_stops_a_replay_at_the_timeout_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    job = script(
        tmp_path,
        "job.py",
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(300)\n",
    )
    # 20 s: time for the replay to start (it imports torch) and start its own child
    done = symdebug("fix", "--timeout", "20", "--max-replays", "1", str(job), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "did not finish within 20 s (stopped)" in done.stdout
    assert "Traceback" not in done.stderr
    assert not _running(int(pid_file.read_text()))


def _running(pid: int) -> bool:
    """Whether a process lives (a zombie no one reaped yet has ended)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return False
    return "State:\tZ" not in status.read_text()


def test_run_fix_replays_read_the_same_stdin(tmp_path: Path) -> None:
    """Each replay reads the sizes the run read; a printed set is the same every run."""
    job = script(
        tmp_path,
        "job.py",
        RECOMPILES + "import sys\n"
        "print(run(map(int, sys.stdin.read().split())))\n"
        "print({f'word{i}' for i in range(20)})\n",
    )
    sizes = tmp_path / "sizes.txt"
    sizes.write_text("4 8 16\n")
    with sizes.open("rb") as stdin:
        done = symdebug(
            "run", "-o", "run.html", "--fix", "--max-replays", "2", str(job),
            cwd=tmp_path, stdin=stdin.fileno(),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    plan = done.stdout.split("Fix plan")[1]
    assert "verified by replay: fewer compiles, no new error, same outputs" in plan
    assert "scale (job.py:2)       2      1" in plan


def test_fix_says_the_output_changes_between_unchanged_runs(tmp_path: Path) -> None:
    job = script(
        tmp_path,
        "job.py",
        "import time, torch\n"
        "def repeat(x, n):\n"
        "    for _ in range(n):\n"
        "        x = x * 2\n"
        "    return x\n"
        "compiled = torch.compile(repeat, backend='eager')\n"
        "print([compiled(torch.ones(3), n).tolist() for n in (1, 2, 3)], time.time_ns())\n",
    )
    done = symdebug("fix", "--max-replays", "3", str(job), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    verdict = done.stdout.split("Fix plan: ")[1].splitlines()[0]
    assert "outputs not compared: the unchanged run's outputs change from run to run" in verdict

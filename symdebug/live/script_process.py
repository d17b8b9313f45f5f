"""One replay process of a script: started, fed, timed and read the same way every time.

- Its input: a file given as stdin (``< input.txt``) is read from where it started by every
  run; a terminal or a pipe, which the first run would use up, is given to none.
- Its output: spilled to a file and hashed, so a script printing 400 MB costs no memory.
- Its time: past the timeout the whole process group is stopped, and that is its verdict.
"""

from __future__ import annotations

import hashlib
import os
import signal
import stat
import subprocess
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

#: What is kept of a run's standard output to show, and of its error output to quote.
KEPT_BYTES = 64 * 1024


class SameInput:
    """Standard input as every replay gets it: the same bytes each time, or none.

    Made before anything reads stdin (``symdebug run --fix`` runs the script here first).
    """

    def __init__(self) -> None:
        self._start = _file_offset(0)

    def for_run(self) -> int:
        """The next run's stdin: this process's, put back at its start, or DEVNULL."""
        if self._start is None:
            return subprocess.DEVNULL
        os.lseek(0, self._start, os.SEEK_SET)
        return 0


def _file_offset(fd: int) -> int | None:
    """Where a regular file open as ``fd`` is read from next; None for anything else."""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.lseek(fd, 0, os.SEEK_CUR)
    except OSError:
        return None


@dataclass
class ChildRun:
    """What one replay process did: its output (a digest, to compare), a head, its errors."""

    output: str
    printed: str
    errors: list[str] = field(default_factory=list)


def run_child(
    command: list[str], env: dict[str, str], *, timeout: float, stdin: int, folder: Path
) -> ChildRun:
    """Run ``command`` to its end or ``timeout``; its output spilled to files in ``folder``."""
    out_path, err_path = folder / "stdout", folder / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(  # noqa: S603 - the user's own script, as they asked
            command, env=env, stdin=stdin, stdout=out, stderr=err, start_new_session=True
        )
        stopped = _stopped_at_timeout(process, timeout)
    if stopped:
        errors = [f"did not finish within {timeout:g} s (stopped)"]
    else:
        errors = _exit_error(process.returncode, err_path)
    return ChildRun(_digest(out_path), _head(out_path), errors)


def _stopped_at_timeout(process: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for the process; True when it ran past ``timeout`` and was stopped.

    The whole group goes (the script's own children too), also when this wait is
    interrupted: a replay never outlives the plan.
    """
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        return True
    finally:
        if process.poll() is None:
            _stop_group(process)
    return False


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    killpg = getattr(os, "killpg", None)
    with suppress(ProcessLookupError, PermissionError):
        if killpg is not None:
            killpg(process.pid, signal.SIGKILL)
        else:  # no process groups (Windows): the process itself
            process.kill()
    process.wait()


def _digest(path: Path) -> str:
    """The file's size and hash: equal outputs, equal digests, at no memory cost."""
    sha = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            sha.update(chunk)
    return f"{path.stat().st_size} bytes, sha256 {sha.hexdigest()}"


def _head(path: Path) -> str:
    with path.open("rb") as file:
        return file.read(KEPT_BYTES).decode(errors="replace")


def _exit_error(status: int, err_path: Path) -> list[str]:
    """A failed run's status and the last line it wrote to stderr (its error)."""
    if status == 0:
        return []
    with err_path.open("rb") as file:
        file.seek(max(err_path.stat().st_size - KEPT_BYTES, 0))
        tail = file.read().decode(errors="replace")
    lines = [line for line in tail.strip().splitlines() if line.strip()]
    return [f"exit status {status}: {lines[-1] if lines else ''}"[:300]]

"""One workload of a suite run here, in a fresh process of its own.

The process is :mod:`symdebug.runs.suite_worker`, started in a session of its own so that a
timeout stops all of it (Inductor's compile workers too).  Its output goes to a log beside
its row; a workload that leaves no row crashed, and its row says how, with the log's end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from symdebug.model import json_text
from symdebug.model.suite_types import WorkloadResult, workload_from_dict
from symdebug.runs.suite_files import Suite, Workload, bounded, result_path, write_row

#: The last lines of a crashed workload's output kept in its error.
ERROR_LINES = 3


def failed_row(workload: Workload, error: str) -> WorkloadResult:
    """The row of a workload that did not finish: its name and why."""
    return WorkloadResult(name=workload.name, error=error)


#: How much of a crashed workload's output is read for its error (its end).
_TAIL_BYTES = 64 * 1024


def _tail(log: Path) -> str:
    """The last lines of a workload's output, for the error of one that crashed (bounded)."""
    if not log.is_file():
        return "no output"
    with log.open("rb") as file:
        file.seek(max(0, log.stat().st_size - _TAIL_BYTES))
        text = file.read().decode("utf-8", errors="replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bounded(" | ".join(lines[-ERROR_LINES:])) or "no output"


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the workload's process group (its compile workers, a forked child) and reap it.

    Also after the workload exited on its own: what it forked and left running is in its
    group still, and must not outlive the suite.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _worker(suite: Suite, workload: Workload) -> list[str]:
    where = [str(suite.file), workload.name, str(suite.out), workload.report]
    return [sys.executable, "-m", "symdebug.runs.suite_worker", *where]


def _started(suite: Suite, workload: Workload, log: Path) -> subprocess.Popen[bytes]:
    """The workload's process, in a session of its own (so that a timeout stops all of it)."""
    with log.open("wb") as output:
        return subprocess.Popen(  # noqa: S603 - our own worker, with the user's file
            _worker(suite, workload),
            cwd=suite.file.parent,
            env={**os.environ, **suite.env},
            stdin=subprocess.DEVNULL,  # a workload reading stdin ends at once, never blocks
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def run_local(suite: Suite, workload: Workload) -> WorkloadResult:
    """Run one workload in a fresh process on this machine; its row, or why there is none."""
    row = result_path(suite.out, workload.report)
    row.parent.mkdir(parents=True, exist_ok=True)
    row.unlink(missing_ok=True)
    suite.started.add(workload.name)
    log = row.with_suffix(".log")
    process = _started(suite, workload, log)
    suite.running.add(process)
    try:
        status: int | None = process.wait(timeout=suite.timeout)
    except subprocess.TimeoutExpired:
        status = None
    finally:
        stop(process)
        suite.running.discard(process)
    if status is None:
        return _timed_out(suite, workload, row)
    if row.is_file():
        return read_row(row)
    return failed_row(workload, f"crashed (exit status {status}): {_tail(log)}")


def _timed_out(suite: Suite, workload: Workload, path: Path) -> WorkloadResult:
    """A workload stopped at its timeout; one whose row is written finished but never exited.

    That row keeps its compiles, with the error said and written back, so that ``--resume``
    runs it again as it runs any row with an error.
    """
    said = f"timed out after {suite.timeout:g} s"
    if not path.is_file():
        return failed_row(workload, said)
    row = read_row(path)
    row.error = f"{said}: it finished its calls but did not exit (a thread or child left running?)"
    write_row(suite.out, workload.report, row)
    return row


def read_row(path: Path) -> WorkloadResult:
    """A row the worker wrote.

    Raises
    ------
    ValueError
        For a file that is no row: not JSON, not an object, or fields a row does not have.
    """
    found = json_text.loads(path.read_bytes())
    if not isinstance(found, dict) or not isinstance(found.get("name"), str):
        raise ValueError(f"{path}: not a workload's row")  # noqa: TRY004 - a bad document
    try:
        return workload_from_dict(found)
    except (TypeError, AttributeError, KeyError) as error:
        raise ValueError(f"{path}: not a workload's row ({error})") from None

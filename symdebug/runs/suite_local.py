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
from symdebug.runs.suite_files import Suite, Workload, result_path

#: The last lines of a crashed workload's output kept in its error.
ERROR_LINES = 3


def failed_row(workload: Workload, error: str) -> WorkloadResult:
    """The row of a workload that did not finish: its name and why."""
    return WorkloadResult(name=workload.name, error=error)


def _tail(log: Path) -> str:
    """The last lines of a workload's output, for the error of one that crashed."""
    text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-ERROR_LINES:]) or "no output"


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the workload's process group (its compile workers too) and reap it."""
    with contextlib.suppress(ProcessLookupError):  # it ended on its own, just now
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
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def run_local(suite: Suite, workload: Workload) -> WorkloadResult:
    """Run one workload in a fresh process on this machine; its row, or why there is none."""
    row = result_path(suite.out, workload.report)
    row.parent.mkdir(parents=True, exist_ok=True)
    row.unlink(missing_ok=True)
    log = row.with_suffix(".log")
    process = _started(suite, workload, log)
    suite.running.add(process)
    try:
        status = process.wait(timeout=suite.timeout)
    except subprocess.TimeoutExpired:
        stop(process)
        return failed_row(workload, f"timed out after {suite.timeout:g} s")
    finally:
        suite.running.discard(process)
    if row.is_file():
        return read_row(row)
    return failed_row(workload, f"crashed (exit status {status}): {_tail(log)}")


def read_row(path: Path) -> WorkloadResult:
    """A row the worker wrote."""
    return workload_from_dict(json_text.loads(path.read_bytes()))

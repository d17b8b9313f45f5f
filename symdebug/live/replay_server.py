"""A fresh process that holds the workload and forks one clean child per replay.

Starting a fresh interpreter costs seconds (torch's import, the workload's module); a plan
replays a dozen times.  So one process is spawned per plan (:mod:`.spawned`'s job: the
parent's import path, settings and random state, the workload), and it forks a child for
each replay.  Its forks are safe where the user's were not: it never ran autograd or CUDA
(it only imported), which it checks before serving (a probe fork, :mod:`.fork_safety`); a
server that cannot fork safely says so, and each replay then gets a fresh process of its own.

The parent sends ``N`` on the server's standard input for the changes in ``request-N``; the
server answers on its standard output with the child's pid, then its exit status; the child
writes ``answer-N`` (and what it printed to ``printed-N``).  Past the deadline the parent
asks the child where it is (``stack-N``), then kills it; the server goes on to the next.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

from symdebug.live.isolated import Outcome, decoded
from symdebug.live.spawned import BOOT, JOB, PACKAGE_ROOT, ReplayJob, child_env
from symdebug.live.stuck_child import innermost_frame

#: How long the server may take to start (torch's import on a slow disk, the workload's).
START_TIMEOUT_S = 600.0


class ReplayServer:
    """The parent's handle on one server: start it, replay through it, close it."""

    def __init__(self, job: ReplayJob, folder: Path) -> None:
        self.folder = folder
        (folder / JOB).write_bytes(pickle.dumps(job))
        self._log = (folder / "server.txt").open("wb")
        self.process = subprocess.Popen(  # noqa: S603 - this interpreter, running symdebug
            [sys.executable, "-c", BOOT, str(folder), PACKAGE_ROOT, "serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
            env=child_env(), start_new_session=True,
        )  # fmt: skip
        self._count = 0
        self.unusable = self._ready()

    def _ready(self) -> str:
        """``""`` once the server serves; else why it cannot (then it has ended)."""
        line = self._line(START_TIMEOUT_S)
        if line == "ready":
            return ""
        self.close()
        said = line.removeprefix("unsafe ") if line.startswith("unsafe ") else ""
        return said or f"the replay server did not start ({self._logged()})"

    def _line(self, timeout: float) -> str:
        """The server's next line, or ``""`` at the deadline or its end."""
        stdout = self.process.stdout
        assert stdout is not None
        ready, _, _ = select.select([stdout], [], [], max(timeout, 0))
        return stdout.readline().decode(errors="replace").strip() if ready else ""

    def _logged(self) -> str:
        if not self._log.closed:  # closed already when the server failed to start
            self._log.flush()
        lines = (self.folder / "server.txt").read_bytes().decode(errors="replace").splitlines()
        return next((line.strip() for line in reversed(lines) if line.strip()), "no output")

    def replay(self, changes: object, timeout: float) -> Outcome:
        """One replay under ``changes``: the child's answer, or why there is none."""
        started, number = time.perf_counter(), self._count
        self._count += 1
        (self.folder / f"request-{number}").write_bytes(pickle.dumps(changes))
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(f"{number}\n".encode())
        stdin.flush()
        outcome = self._awaited(number, time.monotonic() + timeout, timeout)
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _awaited(self, number: int, deadline: float, timeout: float) -> Outcome:
        pid = _pid(self._line(deadline - time.monotonic()))
        done = self._line(deadline - time.monotonic()) if pid else ""
        printed = _read(self.folder / f"printed-{number}")
        if done.startswith("done "):
            answer = self.folder / f"answer-{number}"
            data = answer.read_bytes() if answer.exists() else b""
            outcome = decoded(data, int(done.split()[1]))
            outcome.stdout = printed
            return outcome
        if not pid:
            self.unusable = f"the replay server ended ({self._logged()})"
            return Outcome(error=self.unusable, stdout=printed)
        return Outcome(error=self._stopped(number, pid, timeout), stdout=printed)

    def _stopped(self, number: int, pid: int, timeout: float) -> str:
        """Ask the child where it is, kill it, and let the server go on."""
        stack = self.folder / f"stack-{number}"
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGUSR1)
            _wait_for(stack)
            os.kill(pid, signal.SIGKILL)
        self._line(START_TIMEOUT_S)  # the server's "done" for the killed child
        frame = innermost_frame(_read(stack))
        return f"did not finish within {timeout:g} s (stopped{f'; it was at {frame}' if frame else ''})"  # noqa: E501

    def close(self) -> None:
        """End the server (its standard input closed; killed if it does not end)."""
        with suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._log.close()


def _pid(line: str) -> int:
    parts = line.split()
    return int(parts[1]) if len(parts) == 2 and parts[0] == "pid" and parts[1].isdigit() else 0


def _read(path: Path) -> str:
    return path.read_bytes()[-20000:].decode(errors="replace") if path.exists() else ""


def _wait_for(path: Path, seconds: float = 1.0) -> None:
    """Until the file has something in it, or ``seconds`` passed."""
    deadline = time.monotonic() + seconds
    while (not path.exists() or path.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.05)  # the other threads' stacks follow the first line

"""The replay process's side: take this process to the parent's state, then replay.

Started by :mod:`symdebug.live.spawned` as ``python -c`` with the job's folder and a mode:
``once`` runs one replay and writes its answer; ``serve`` (:mod:`.replay_server`) loads the
workload once, proves a fork safe here, and forks a child per request.  It never returns to
a caller (``os._exit``: no atexit handler of the workload's runs twice).
"""

from __future__ import annotations

import gc
import os
import pickle
import random
import sys
from pathlib import Path
from typing import IO, Any

import numpy

from symdebug._torch.process_state import restore_torch_state
from symdebug.live.fork_safety import fork_unsafe_reason
from symdebug.live.isolated import payload
from symdebug.live.replay import Workload, forked_side, replayed_here
from symdebug.live.spawned import ANSWER, JOB, ReplayJob
from symdebug.live.stuck_child import arm


def _enter(job: ReplayJob) -> None:
    """The parent's import path, command line, torch and random state."""
    sys.path[:] = job.sys_path
    sys.argv[:] = job.argv
    restore_torch_state(job.torch)
    if job.python_random is not None:
        random.setstate(job.python_random)
    if job.numpy_random is not None:  # the parent had imported numpy: its state too
        numpy.random.set_state(job.numpy_random)


def _child(run: Any) -> bytes:
    """The answer of ``run()`` (the frame :mod:`.stuck_child` looks for: ``in _child``)."""
    return payload(run)


def _once(job: ReplayJob, folder: Path) -> None:
    """One replay here, its answer written beside the job."""
    with Path(job.stack_path).open("ab") as stack:
        arm(stack)

        def run() -> Any:
            workload = pickle.loads(job.workload)  # noqa: S301 - our parent's own job
            return replayed_here(workload, job.changes)

        answer = _child(run)
    (folder / ANSWER).write_bytes(answer)


def _quiet(printed: Path) -> None:
    """A child's input empty, its output and errors to ``printed`` (descriptors too)."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    out = os.open(printed, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(devnull, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    sys.stdin = open(os.devnull)  # noqa: SIM115, PTH123 - the child's stdin until it exits
    sys.stdout = sys.stderr = open(out, "w", closefd=False)  # noqa: SIM115


def fork_one(workload: Workload, folder: Path, number: str, world: int | None = None) -> int:
    """Fork a child that replays request ``number``; its pid (the child never returns).

    ``world``: the size of the user's process group (the child makes its own of one).
    """
    pid = os.fork()
    if pid:
        return pid
    try:
        gc.freeze()  # the server's garbage is the server's to collect
        _quiet(folder / f"printed-{number}")
        with (folder / f"stack-{number}").open("wb") as stack:
            arm(stack)
            changes = pickle.loads((folder / f"request-{number}").read_bytes())  # noqa: S301
            answer = _child(lambda: forked_side(workload, changes, world))
        (folder / f"answer-{number}").write_bytes(answer)
        sys.stdout.flush()
    finally:
        os._exit(0)


def _serve(job: ReplayJob, folder: Path, control: IO[str]) -> None:
    """Load the workload, prove a fork safe, then a forked child per request, in turn."""
    workload = pickle.loads(job.workload)  # noqa: S301 - our parent's own job
    unsafe = fork_unsafe_reason()
    control.write(f"unsafe {unsafe}\n" if unsafe else "ready\n")
    control.flush()
    if unsafe:
        return
    for line in sys.stdin:
        pid = fork_one(workload, folder, line.strip(), job.torch.process_group_world)
        control.write(f"pid {pid}\n")
        control.flush()
        status = os.waitpid(pid, 0)[1]
        control.write(f"done {os.waitstatus_to_exitcode(status)}\n")
        control.flush()


def main(folder: str, mode: str) -> None:
    """Run the job in ``folder`` (``once`` or ``serve``); then leave at once."""
    path = Path(folder)
    job: ReplayJob = pickle.loads((path / JOB).read_bytes())  # noqa: S301 - our own job
    control = os.fdopen(os.dup(1), "w")  # the parent reads the server's answers here
    os.dup2(2, 1)  # what this process prints itself (imports, warnings) goes with stderr
    _enter(job)
    if mode == "serve":
        _serve(job, path, control)
    else:
        _once(job, path)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)

"""A replay in a fresh Python process (spawn), so nothing of this process is inherited.

A forked child shares its parent's threads' leftovers: CUDA it cannot use again, an
autograd engine that refuses to run (torch's CUDA builds), locks held by threads it does
not have.  A spawned process starts clean: it is given this process's import path, its
command line, torch's settings, dtype, grad mode and random state
(:mod:`symdebug._torch.process_state`), the workload (:mod:`.workload_ref`) and the
changes, in a job file; it writes its answer beside it.  Its standard input is empty and
what it prints is kept; past the deadline it is asked where it is (``faulthandler``), then
its whole process group is stopped.  :mod:`.replay_server` runs a plan's replays through one
such process; :func:`run_spawned` starts one per replay, where that server cannot fork.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from symdebug._torch.process_state import TorchState, torch_state
from symdebug.live.isolated import Outcome, decoded
from symdebug.live.stuck_child import stack_of

JOB, ANSWER, PRINTED = "job.pickle", "answer.pickle", "printed.txt"
#: The child's first line: this very symdebug, then its job (``-c``: no file of ours is run).
BOOT = (
    "import sys; sys.path.insert(0, sys.argv[2]); "
    "from symdebug.live.replay_child import main; main(sys.argv[1], sys.argv[3])"
)
#: The folder holding this ``symdebug/``: the replay process imports this very package.
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
#: Replays run alike: ``set`` and ``dict`` orders that depend on string hashes as well.
_HASH_SEED = "0"


@dataclass
class ReplayJob:
    """What a replay process is given; the workload is loaded once the import path is set."""

    workload: bytes
    changes: Any
    sys_path: list[str] = field(default_factory=list)
    argv: list[str] = field(default_factory=list)
    torch: TorchState = field(default_factory=TorchState)
    python_random: Any = None
    numpy_random: Any = None
    stack_path: str = ""


def parent_job(workload: bytes, changes: Any) -> ReplayJob:
    """The job for this process's state now: its path, arguments, torch and random state."""
    numpy = sys.modules.get("numpy")
    return ReplayJob(
        workload=workload,
        changes=changes,
        sys_path=list(sys.path),
        argv=list(sys.argv),
        torch=torch_state(),
        python_random=random.getstate(),
        numpy_random=numpy.random.get_state() if numpy is not None else None,
    )


def run_spawned(job: ReplayJob, timeout: float) -> Outcome:
    """Run ``job`` in a fresh process; its answer, or why there is none."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="symdebug-replay-") as name:
        folder = Path(name)
        with (folder / "stack").open("w+b") as stack:
            job.stack_path = stack.name
            (folder / JOB).write_bytes(pickle.dumps(job))
            error, status = _run(folder, timeout, stack)
        outcome = _answer(folder, error, status)
    outcome.seconds = time.perf_counter() - started
    return outcome


def child_env() -> dict[str, str]:
    """The environment of the process asking, string hashes fixed: replays run alike."""
    return dict(os.environ, PYTHONHASHSEED=_HASH_SEED)


def _run(folder: Path, timeout: float, stack: IO[bytes]) -> tuple[str, int]:
    """Start the child and wait: ``("", exit status)``, or why it was stopped."""
    env = child_env()
    command = [sys.executable, "-c", BOOT, str(folder), PACKAGE_ROOT, "once"]
    with (folder / PRINTED).open("wb") as printed:
        process = subprocess.Popen(  # noqa: S603 - this interpreter, running symdebug
            command, stdin=subprocess.DEVNULL, stdout=printed, stderr=subprocess.STDOUT,
            env=env, start_new_session=True,
        )  # fmt: skip
        try:
            return "", process.wait(timeout)
        except subprocess.TimeoutExpired:
            frame = stack_of(process.pid, stack)
            at = f"; it was at {frame}" if frame else ""
            return f"did not finish within {timeout:g} s (stopped{at})", -1
        finally:
            _stop_group(process)


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """The child and what it started: gone, also when the wait was interrupted."""
    if process.poll() is None:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _answer(folder: Path, error: str, status: int) -> Outcome:
    printed = (folder / PRINTED).read_bytes()[-20000:].decode(errors="replace")
    answer = folder / ANSWER
    if error:
        return Outcome(error=error, stdout=printed)
    if not answer.exists():
        last = next(reversed([line for line in printed.splitlines() if line.strip()]), "")
        why = f"exit status {status}" + (f": {last.strip()}" if last else "")
        return Outcome(error=f"the replay process ended without an answer ({why})"[:300])
    outcome = decoded(answer.read_bytes(), 0)
    outcome.stdout = printed
    return outcome

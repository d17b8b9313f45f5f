"""Run a function in a forked child, so nothing it does reaches this process.

A replay resets Dynamo, swaps code and marks tensors: in a fork, the user's compiled
functions keep their cache entries, the live session its facts, the notebook its namespace.
A child that never returns is killed at its deadline; one that reads standard input reads
an empty one; what it prints is kept, not shown.  Where ``os.fork`` is missing (Windows),
the function runs here, and the caller restores what it can.
"""

from __future__ import annotations

import gc
import io
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from symdebug.live.stuck_child import arm, stack_file, stack_of

#: What a child sends back when its result does not pickle.
UNPICKLABLE = "unpicklable"


@dataclass
class Outcome:
    """What the child returned, or why it returned nothing.

    Attributes
    ----------
    value
        The function's result, when it finished and pickled.
    error
        One line: a timeout, a crash of the child, a result that could not be sent back.
    stdout
        What the function printed (standard output and error, together).
    """

    value: Any = None
    error: str = ""
    stdout: str = ""
    seconds: float = 0.0


def can_fork() -> bool:
    """Whether this platform forks (Linux, macOS)."""
    return hasattr(os, "fork")


def run_isolated(function: Callable[[], Any], timeout: float) -> Outcome:
    """``function()`` in a forked child; its result pickled back through a pipe."""
    started = time.perf_counter()
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    with stack_file() as stack:
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_end)
            arm(stack)
            _child(function, write_end)
        os.close(write_end)
        outcome = _collect(pid, read_end, timeout, stack)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _child(function: Callable[[], Any], write_end: int) -> None:
    """Run, send ``(value, printed)`` or ``(error, printed)``, and leave at once.

    ``os._exit``: no atexit handler, no flush of the parent's buffers, no kernel message.
    ``gc.freeze``: the parent's garbage is the parent's to collect.  Its finalizers may act on
    what the child holds only a copy of (a ``DistributedDataParallel`` left in a reference
    cycle: its Gloo process group's destructor waits forever on a condition whose waiters are
    the parent's threads), or write the parent's buffers a second time.
    """
    gc.freeze()
    printed = _quiet_child()
    try:
        answer = payload(function, printed)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(answer)
    finally:
        os._exit(0)


def _quiet_child() -> io.StringIO:
    """Empty standard input; standard output and error kept in a buffer.

    The file descriptors too: a notebook kernel's streams send to the front end from a
    thread the child does not have, and a C library writes to descriptor 1.
    """
    devnull = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(devnull, descriptor)
    printed = io.StringIO()
    sys.stdin = open(os.devnull)  # noqa: SIM115, PTH123 - the child's stdin until it exits
    sys.stdout = sys.stderr = printed
    return printed


def payload(function: Callable[[], Any], printed: io.StringIO | None = None) -> bytes:
    """``(kind, value or error, printed)`` pickled: what a replay process sends back."""
    printed = printed or io.StringIO()
    try:
        result: tuple[str, Any] = ("value", function())
    except BaseException as error:  # noqa: BLE001 - everything is reported to the parent
        result = ("error", f"{type(error).__name__}: {error}"[:300])
    try:
        return pickle.dumps((*result, printed.getvalue()[-20000:]))
    except Exception as error:  # noqa: BLE001 - what does not pickle is said, not raised
        why = f"{UNPICKLABLE}: {type(error).__name__}: {error}"[:300]
        return pickle.dumps(("error", why, printed.getvalue()[-20000:]))


def _collect(pid: int, read_end: int, timeout: float, stack: IO[bytes]) -> Outcome:
    """Read the child's answer until its deadline; past that, read where it is, and kill it."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                return Outcome(error=_stopped(pid, timeout, stack))
            chunk = pipe.read(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    status = os.waitpid(pid, 0)[1]
    return decoded(b"".join(chunks), status)


def _stopped(pid: int, timeout: float, stack: IO[bytes]) -> str:
    """Kill the child; say so, and where it was (a loop of the user's, a blocked call)."""
    frame = stack_of(pid, stack)
    _kill(pid)
    at = f"; it was at {frame}" if frame else ""
    return f"did not finish within {timeout:g} s (stopped{at})"


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def decoded(data: bytes, status: int) -> Outcome:
    """The child's message, or what its exit status says when it sent none."""
    if not data:
        return Outcome(error=f"the replay process ended without an answer ({_status(status)})")
    kind, value, printed = pickle.loads(data)  # noqa: S301 - our own child's message
    if kind == "error":
        return Outcome(error=value, stdout=printed)
    return Outcome(value=value, stdout=printed)


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"

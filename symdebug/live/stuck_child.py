"""Where a forked child was stuck when its deadline passed: its Python stack, read before the kill.

A replay that never returns is stopped, and "did not finish" alone leaves the user to guess
whether their workload loops or the child is blocked (a lock another thread of the parent held
at the fork).  The child arms :mod:`faulthandler` on ``SIGUSR1`` to write every thread's stack
to a file the parent opened before the fork; the parent asks for it, then kills.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import tempfile
import time
from typing import IO

#: How long the parent waits for the stack before it kills the child anyway.
DUMP_WAIT_S = 1.0
#: The frame of :mod:`symdebug.live.isolated` every child's own thread passes through.
_CHILD_ROOT = "in _child"
#: The heading of the thread that took the signal, and the line of a collection under way.
_SIGNALED, _COLLECTING = "Current thread", "Garbage-collecting"


def stack_file() -> IO[bytes]:
    """A file both sides of the fork hold: the child writes its stack there when asked."""
    return tempfile.TemporaryFile()  # the caller closes it, after the child has ended


def arm(file: IO[bytes]) -> None:
    """In the child: write every thread's stack to ``file`` on ``SIGUSR1``."""
    faulthandler.register(signal.SIGUSR1, file=file, all_threads=True)


def stack_of(pid: int, file: IO[bytes]) -> str:
    """Ask the child for its stack; the innermost frame of its own thread, or ``""``."""
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + DUMP_WAIT_S
    while os.fstat(file.fileno()).st_size == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.05)  # the other threads' stacks follow the first line
    file.seek(0)
    return innermost_frame(file.read().decode(errors="replace"))


def innermost_frame(dump: str) -> str:
    """Where the thread that runs the child's function is: its most recent frame.

    :mod:`faulthandler` lists each thread's frames most recent first, the first hundred only.
    The child's own thread passes through ``_child`` (below it, the parent's frames at the
    fork); a deeper one is the thread that took the signal.  A collection has no frame of
    its own: its line says so, and the frame that triggered it follows.
    """
    blocks = [_frames(block) for block in dump.split("\n\n")]
    ours = [b for b in blocks if any(f.endswith(_CHILD_ROOT) for f in b)]
    ours = ours or [b for b in blocks if b and b[0].startswith(_SIGNALED)]
    frames = [f for f in ours[0][1:] if f != "..."] if ours else []
    if frames[:1] == [_COLLECTING] and len(frames) > 1:
        return f"garbage collection, called from {frames[1]}"
    return frames[0] if frames else ""


def _frames(block: str) -> list[str]:
    """A thread's heading, then its frames, each stripped."""
    return [line.strip() for line in block.splitlines() if line.strip()]

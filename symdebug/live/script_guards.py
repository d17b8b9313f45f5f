"""What a script run in this process may do that would cost ``symdebug run`` its report.

``os._exit`` skips everything after it: the caller saves the capture first.  A closed
stdout or stderr is put back (a copy of the descriptor taken before).  Threads still running
at the end are waited for a while, as python waits for them at exit, so their compiles are
captured; what still runs after that is said.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, NoReturn

from symdebug._torch.compile_lock import compiles_finished

#: How long threads the script left running may go on compiling into the capture.
THREAD_WAIT_S = 60.0
_STREAMS = ("stdout", "stderr")


@contextmanager
def own_streams() -> Iterator[None]:
    """After the block, stdout and stderr as they were; a copy of one the script closed."""
    saved = [(name, getattr(sys, name), _copy(getattr(sys, name))) for name in _STREAMS]
    try:
        yield
    finally:
        for name, stream, copy in saved:
            setattr(sys, name, _usable(stream, copy))


def _copy(stream: IO[str] | None) -> int | None:
    """A duplicate of the stream's file descriptor, to write to if the script closes it."""
    try:
        return os.dup(stream.fileno()) if stream is not None else None
    except (OSError, ValueError, AttributeError):  # no descriptor (a notebook's stream)
        return None


def _usable(stream: IO[str] | None, copy: int | None) -> Any:
    if stream is not None and not stream.closed:
        if copy is not None:
            os.close(copy)
        return stream
    if copy is None:
        return Path(os.devnull).open("w")  # it stays sys.stdout (or stderr) from now on
    encoding = getattr(stream, "encoding", None)
    return open(copy, "w", buffering=1, encoding=encoding)  # noqa: PTH123 - a descriptor


@contextmanager
def hard_exit_caught(before: Callable[[int], None], pid: int) -> Iterator[None]:
    """``os._exit`` in process ``pid`` calls ``before(status)`` first; a forked child's not."""
    real = os._exit

    def hard_exit(status: int) -> NoReturn:
        try:
            if os.getpid() == pid:
                setattr(os, "_exit", real)  # noqa: B010 - once: what follows exits for real
                before(status)
        finally:
            real(status)

    setattr(os, "_exit", hard_exit)  # noqa: B010 - mypy refuses assigning to a function
    try:
        yield
    finally:
        setattr(os, "_exit", real)  # noqa: B010


def left_running(before: set[threading.Thread]) -> list[str]:
    """Wait a while (python waits for ever) for threads started since ``before``.

    Returns what the capture may then miss: threads still running, a compile not done.
    """
    deadline = time.monotonic() + THREAD_WAIT_S
    for thread in _started_since(before):
        if not thread.daemon:
            thread.join(max(deadline - time.monotonic(), 0.0))
    running = [t.name for t in _started_since(before) if not t.daemon and t.is_alive()]
    missing = [f"threads still running after {THREAD_WAIT_S:g} s: {', '.join(running)}"]
    missing = missing if running else []
    if not compiles_finished(deadline - time.monotonic()):
        missing.append("a compile still running in another thread")
    return missing


def _started_since(before: set[threading.Thread]) -> list[threading.Thread]:
    """Threads started since ``before``, less idle pool workers (python's exit stops those)."""
    return [t for t in threading.enumerate() if t not in before and not _pool_worker(t)]


def _pool_worker(thread: threading.Thread) -> bool:
    target = getattr(thread, "_target", None)
    return getattr(target, "__module__", "") == "concurrent.futures.thread"

"""How a suite stops: at a signal, with what finished kept; and its timeout, checked.

Ctrl-C (SIGINT) and SIGTERM end a suite the same way: the workload processes are stopped
(each in its process group, with what they forked), ``suite.json`` and ``index.html`` are
written with the rows that finished and the others said as not finished, and the command
exits with the signal's status (130, 143), without a traceback.
"""

from __future__ import annotations

import math
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from symdebug.model.suite_types import SuiteFacts
from symdebug.runs.suite_files import SuiteError

#: The exit status of a command ended by each signal, as a shell reports it.
EXIT_STATUS = {"SIGINT": 130, "SIGTERM": 143}


class SuiteStoppedError(KeyboardInterrupt):
    """A suite stopped by a signal; ``facts`` hold the rows written (the others unfinished)."""

    def __init__(self, facts: SuiteFacts, said: str) -> None:
        super().__init__(said)
        self.facts = facts
        self.signal = said


def _interrupt(number: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(signal.Signals(number).name)


@contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM stops the block as Ctrl-C does (in the main thread; elsewhere, untouched)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def seconds(timeout: float) -> float:
    """A workload's timeout, checked: a finite number of seconds above 0."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise SuiteError(f"the timeout is a number of seconds, not {timeout!r}")
    if not math.isfinite(timeout) or timeout <= 0:
        raise SuiteError(f"the timeout must be a finite number of seconds above 0, not {timeout}")
    return float(timeout)

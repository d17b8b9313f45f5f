"""Changes to torch's process-wide state that several captures may hold at once.

Captures nest and may stop in any order (``symdebug.start()`` twice, a fix plan inside a
capture).  Each change is made by the first holder and undone by the last one, whatever the
order, so a capture stopped early never leaves a setting on for the rest of the process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Makes a change and returns what undoes it.
Change = Callable[[], Callable[[], None]]


class Held:
    """One change, made while at least one holder holds it."""

    def __init__(self, change: Change) -> None:
        self._change = change
        self._undo: Callable[[], None] | None = None
        self._holders = 0
        self._lock = threading.Lock()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the change for the block."""
        with self._lock:
            if self._holders == 0:
                self._undo = self._change()
            self._holders += 1
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        with self._lock:
            self._holders -= 1
            undo = self._undo if self._holders == 0 else None
            if undo is not None:
                self._undo = None
                undo()

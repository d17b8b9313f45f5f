"""Which threads compiled while a budget was held: a thread an earlier test left compiling.

A capture counts every compile torch makes while it is held, whichever thread makes it.  A
test that starts a thread which is still compiling when the next test's budget is entered
would fail that budget for a compile it never asked for.  torch writes one ``dynamo_start``
record per compile to its trace logger, on the compiling thread: a filter on that logger
notes each compile's thread, and a budget's failure names the threads other than its own,
saying which were running before it was entered.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

#: Torch's structured trace logger: one record per event, ``metadata`` keyed by its name.
TRACE_LOGGER = "torch.__trace"
_START = "dynamo_start"


class CompileThreads(logging.Filter):
    """Counts the compiles each thread starts while installed; lets every record through."""

    def __init__(self) -> None:
        super().__init__()
        self.owner = threading.get_ident()
        self.before = {t.ident: t.name for t in threading.enumerate() if t.ident is not None}
        self.started: Counter[tuple[int, str]] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        """Note a compile's thread (runs on the compiling thread); never drops a record."""
        metadata = getattr(record, "metadata", None)
        if isinstance(metadata, dict) and _START in metadata and record.thread != self.owner:
            self.started[(record.thread or 0, record.threadName or "?")] += 1
        return True

    def __enter__(self) -> CompileThreads:
        logging.getLogger(TRACE_LOGGER).addFilter(self)
        return self

    def __exit__(self, *_: object) -> None:
        logging.getLogger(TRACE_LOGGER).removeFilter(self)

    def notes(self) -> list[str]:
        """One line per other thread that compiled: how often, and whether it ran before."""
        return [
            f"{count} compile(s) ran in thread {name!r}, not the one that held the budget"
            + (
                ": it was running before the budget was entered (a thread an earlier test "
                "left compiling?); join it where it is started"
                if ident in self.before
                else ""
            )
            for (ident, name), count in self.started.items()
        ]

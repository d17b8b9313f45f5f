"""Dynamo's own word on each recompile: its ``recompiles`` log, read while a workload runs.

``torch._logging.set_logs(recompiles=True)`` makes Dynamo log, for each compile that
replaces a cached entry, every entry's failed check (``- 0/0: tensor 'x' size mismatch at
index 1. expected 8, actual 12``), newest entry first.  :func:`dynamo_recompiles` collects
those messages by the id of the compile they start (read from torch's compile context as
the record is emitted), with the number of the workload's call that triggered it, and
:func:`torch_check` reads a check's kind and input with this module's own patterns: no
symdebug parser is involved.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch

#: One failure as torch words it: ``<entry>: <check>``.
_FAILURE = re.compile(r"^(?P<entry>\d+/\d+): (?P<check>.*)$", re.DOTALL)
_MISMATCH = re.compile(
    r"^tensor '(?P<tensor>[^']+)' size mismatch at index (?P<dim>\d+)\. "
    r"expected (?P<expected>\d+), actual (?P<actual>\d+)"
)
_RANGE = re.compile(
    r"^(?:(?P<lower>\d+) <= )?(?P<tensor>[^\s<>=]+)\.size\(\)\[(?P<dim>\d+)\]"
    r"(?: <= (?P<upper>\d+))?\s*(?:#|$)"
)
_IDENTITY = re.compile(r"___check_(?:type|obj)_id\((?P<source>[^,]+),")
_LENGTH = re.compile(r"^len\((?P<source>.+?)\) == \d+")


@dataclass
class DynamoRecompile:
    """One recompile as Dynamo logged it."""

    compile_id: str
    #: ``<entry>: <check>`` per failed entry, newest entry first, as torch wrote them.
    failures: list[str]
    #: The number of the workload's call that missed every entry.
    call: int

    @property
    def entries(self) -> list[str]:
        """The failed entries, newest first."""
        return [_FAILURE.match(f)["entry"] for f in self.failures]  # type: ignore[index]

    @property
    def first_check(self) -> str:
        """The check that failed on the newest entry (the one a recompile is about)."""
        return _FAILURE.match(self.failures[0])["check"]  # type: ignore[index]


@dataclass
class TorchCheck:
    """What kind of check torch names, and on which input.

    ``kind``: ``size`` (a size the entry held constant: ``expected`` is that constant),
    ``range`` (a bound of a dynamic size: ``lower`` and ``upper``), ``identity`` (an
    object's or class's id), ``length`` (a container's length) or ``other``.
    """

    kind: str
    source: str | None = None
    dim: int | None = None
    expected: int | None = None
    lower: int | None = None
    upper: int | None = None


def _bound(text: str | None) -> int | None:
    return int(text) if text is not None else None


def torch_check(check: str) -> TorchCheck:
    """The kind and input of one check, as torch words it."""
    if (found := _MISMATCH.match(check)) is not None:
        source = f"{found['tensor']}.size()[{found['dim']}]"
        return TorchCheck("size", source, int(found["dim"]), int(found["expected"]))
    if (found := _RANGE.match(check)) is not None:
        source = f"{found['tensor']}.size()[{found['dim']}]"
        lower, upper = _bound(found["lower"]), _bound(found["upper"])
        return TorchCheck("range", source, int(found["dim"]), lower=lower, upper=upper)
    if (found := _IDENTITY.search(check)) is not None:
        return TorchCheck("identity", found["source"].strip())
    if (found := _LENGTH.match(check)) is not None:
        return TorchCheck("length", found["source"])
    return TorchCheck("other")


def _failures(message: str) -> list[str]:
    """The ``- <entry>: <check>`` items of a message (a check may span lines)."""
    items: list[str] = []
    for line in message.splitlines()[2:]:
        text = line.strip().removeprefix("- ")
        if _FAILURE.match(text) or not items:
            items.append(text)
        else:
            items[-1] += "\n" + text
    return items


class DynamoLog(logging.Handler):
    """Keeps each recompile message Dynamo logs, by the compile it starts."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: dict[str, DynamoRecompile] = {}
        #: The number of the workload's call now running (set by the workload).
        self.call = 0

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith("Recompiling function"):
            return
        compile_id = str(torch._guards.CompileContext.current_compile_id())
        self.found[compile_id] = DynamoRecompile(compile_id, _failures(message), self.call)


@contextmanager
def dynamo_recompiles() -> Iterator[DynamoLog]:
    """Collect Dynamo's ``recompiles`` log while the block runs.

    Set ``.call`` before each call of the workload to have each recompile say which call
    made it.  Enter it before a capture starts: ``set_logs`` reconfigures torch's loggers.
    On exit torch's log settings are reset to the defaults (all off).
    """
    collector = DynamoLog()
    logger = logging.getLogger("torch._dynamo")
    torch._logging.set_logs(recompiles=True)
    logger.addHandler(collector)
    try:
        yield collector
    finally:
        logger.removeHandler(collector)
        torch._logging.set_logs()

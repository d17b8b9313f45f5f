"""The source of a file the facts name: the live program's, never the log reader's disk.

A log names its files by path, and the machine that reads it may hold other files at those
paths, or none: a document read from a log must depend on the log alone, or the same log
reads differently on two machines.  So source is read only while a live capture's facts are
built (the program's own files, in its own process); :func:`sources_read` turns it off while
a log's facts are built, unless the caller asked for it with :func:`log_sources_read` (on
the machine that ran the program: then the document depends on those files too).
"""

from __future__ import annotations

import ast
import linecache
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from functools import lru_cache

#: None: nobody decided (read); True: a caller asked a log's reading to read source too.
_READS_SOURCE: ContextVar[bool | None] = ContextVar("symdebug_reads_source", default=None)


@contextmanager
def _reading(allowed: bool | None) -> Iterator[None]:
    token = _READS_SOURCE.set(allowed)
    try:
        yield
    finally:
        _READS_SOURCE.reset(token)


def sources_read(live: bool) -> AbstractContextManager[None]:
    """Within the block, read source files only for a ``live`` capture's build.

    A log's build reads none, unless the caller opted in (:func:`log_sources_read`).
    """
    return _reading(live or _READS_SOURCE.get() is True)


def log_sources_read() -> AbstractContextManager[None]:
    """Within the block, a log's reading also reads the source files the log names.

    For a log read on the machine that ran the program: ``forward``'s parameter names, the
    line that marked a dim, a list's first use come from those files, so the document then
    depends on them too (and reads differently wherever they differ or are missing).
    """
    return _reading(True)


def reads_source() -> bool:
    """Whether source files may be read now (False while a log's facts are built)."""
    return _READS_SOURCE.get() is not False


def source_lines(filename: str) -> list[str]:
    """A file's lines, or none while a log is read (or when it cannot be read)."""
    if not filename or not reads_source():
        return []
    try:
        return linecache.getlines(filename)
    except (OSError, ValueError):  # a name too long for this system, or holding a NUL
        return []


def source_line(filename: str, lineno: int) -> str:
    """One line of a file, stripped ("" while a log is read or past the file's end)."""
    lines = source_lines(filename) if lineno > 0 else []
    return lines[lineno - 1].strip() if lineno <= len(lines) else ""


def parsed_source(filename: str) -> ast.Module | None:
    """A file's syntax tree (None while a log is read, or when unreadable or unparsable)."""
    lines = source_lines(filename)
    return _parsed("".join(lines)) if lines else None


@lru_cache(maxsize=64)
def _parsed(text: str) -> ast.Module | None:
    """Remembered by the text itself: a live program's file may change between builds."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None

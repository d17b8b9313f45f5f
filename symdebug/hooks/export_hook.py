"""Brackets each ``torch.export.export`` / ``draft_export`` call with events.

A non-strict export runs outside Dynamo: torch's trace logger names no compile for its
events, and the ``UserError`` it raises (``Constraints violated (T)! ... Suggested fixes``)
is never logged.  While a capture runs, both functions are wrapped: ``export_start`` and
``export_end`` (with the error's text) frame the call's events.  The wrapper never changes
what the call returns or raises.
"""

from __future__ import annotations

import contextlib
import functools
import linecache
import re
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from symdebug.events import Event, EventStream

#: The functions of ``torch.export`` that are wrapped while a capture runs.
WRAPPED = ("export", "draft_export")


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _text(error: BaseException) -> str:
    """The error's message; its type's name when even that fails."""
    try:
        return str(error)
    except Exception:  # noqa: BLE001 - the user's error propagates whatever its text does
        return type(error).__name__


def _report_text(result: Any) -> str | None:
    """A draft export's report of what it could not do soundly (None when it has none)."""
    try:
        report = getattr(result, "_report", None)
        if report is None or not getattr(report, "failures", None):
            return None
        return _ANSI.sub("", str(report)).strip()
    except Exception:  # noqa: BLE001 - reading the report must not break the user's export
        return None


def _caller(frame: FrameType) -> dict[str, Any]:
    """The line that called ``torch.export`` (a strict export logs no stack of its own)."""
    code = frame.f_code
    try:
        line = linecache.getline(code.co_filename, frame.f_lineno).strip()
    except Exception:  # noqa: BLE001 - reading a line must not break the user's export
        line = ""
    return {"filename": code.co_filename, "line": frame.f_lineno, "name": code.co_name, "loc": line}


def _wrapper(function: Callable[..., Any], stream: EventStream) -> Callable[..., Any]:
    name = function.__name__

    @functools.wraps(function)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        start = {"function": name, "caller": _caller(sys._getframe(1))}
        stream.events.append(Event("export_start", start, None))
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            failed = {"function": name, "type": type(error).__name__, "error": _text(error)}
            stream.events.append(Event("export_end", failed, None))
            raise
        done = {"function": name, "error": None, "report": _report_text(result)}
        stream.events.append(Event("export_end", done, None))
        return result

    recorded.__symdebug_wrapped__ = function  # type: ignore[attr-defined]
    return recorded


@contextlib.contextmanager
def exports_recorded(stream: EventStream) -> Iterator[None]:
    """Wrap ``torch.export``'s entry points for the duration (restored on exit)."""
    # lazy: wrapped only while a capture runs; this module imports no torch of its own
    import torch.export as module  # noqa: PLC0415

    originals = {name: getattr(module, name, None) for name in WRAPPED}
    for name, function in originals.items():
        if callable(function):
            setattr(module, name, _wrapper(function, stream))
    try:
        yield
    finally:
        for name, function in originals.items():
            if function is not None:
                setattr(module, name, function)

"""Torch's structured trace logger (``torch._logging``): attach handlers, resolve strings.

torch 2.13 emits every structured event through ``trace_log`` (``torch.__trace``) and only
builds the records when that logger has at least one handler of its own
(``torch/_logging/_internal.py:1494``), so our handler must sit on it directly.
"""

from __future__ import annotations

import functools
import inspect
import logging
import textwrap
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import CodeType
from typing import Any

import torch._logging.structured as _structured
from torch._logging import _internal

from symdebug._torch.holds import Held


def trace_logger() -> logging.Logger:
    """The logger every ``trace_structured`` call writes to."""
    return _internal.trace_log


def interned_strings() -> dict[int, str]:
    """Id -> string for every string torch interned in this process.

    ``str`` events are emitted only the first time a filename is interned in the process,
    so a handler attached later must read the process-global table instead.
    """
    return {index: text for text, index in _structured.INTERN_TABLE.items()}


# torch hashes each payload as ``payload.encode("utf-8")``, and only while a handler is
# attached: a source file whose name is not UTF-8 (a lone surrogate in the graph's
# ``# File:`` comments) compiles without capture and fails under it (and under TORCH_TRACE)
# with ``UnicodeEncodeError``.  While a capture holds it, ``trace_structured`` runs a copy
# of its own code that hashes such text as ``surrogatepass`` bytes; where torch's code no
# longer reads that way, nothing is changed.
_HASHED = 'h.update(payload.encode("utf-8"))'
_TOLERANT = 'h.update(payload.encode("utf-8", "surrogatepass"))'


@functools.cache
def _tolerant_code() -> CodeType | None:
    """``trace_structured``'s code with the tolerant hashing, or None where it differs."""
    function = _internal.trace_structured
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None
    source = textwrap.dedent("".join(lines))
    if source.count(_HASHED) != 1 or not source.startswith("def "):
        return None
    padded = "\n" * (first - 1) + source.replace(_HASHED, _TOLERANT)  # tracebacks keep lines
    namespace: dict[str, Any] = {}
    exec(compile(padded, function.__code__.co_filename, "exec"), function.__globals__, namespace)  # noqa: S102
    code: CodeType = namespace[function.__name__].__code__
    return code if code.co_freevars == function.__code__.co_freevars else None


def _tolerant_hashing() -> Callable[[], None]:
    function = _internal.trace_structured
    original, tolerant = function.__code__, _tolerant_code()
    if tolerant is not None:
        function.__code__ = tolerant

    def undo() -> None:
        function.__code__ = original

    return undo


_TOLERANT_HASHING = Held(_tolerant_hashing)


def payload_hashing_tolerant() -> AbstractContextManager[None]:
    """Non-UTF-8 text in a payload compiles under capture as it does without (see above)."""
    return _TOLERANT_HASHING.held()

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
from symdebug._torch.running import running_release


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

# torch builds every payload once any handler listens, and some cost a compile more than
# all of capture's own work: each AOT and Inductor graph printed as code (five per
# Inductor graph), a runnable repro script, the functorch config.  symdebug reads
# none of them (Dynamo's graph and Inductor's output code are what it parses), so while
# only its handlers listen, the copy of ``trace_structured`` leaves these payloads out;
# with any other handler (TORCH_TRACE, tlparse's) every payload is built as before.
UNREAD_PAYLOADS = running_release().records.unread_payloads
#: What a handler says to be one of symdebug's (this module imports no capture code).
OUR_HANDLER = "symdebug_reads_only_what_it_parses"
_BUILT = "payload = payload_fn()"
_SPARED = f"payload = None if {OUR_HANDLER}(name, record) else payload_fn()"


def _payload_unread(name: str, record: dict[str, Any]) -> bool:
    """Whether no handler listening reads this event's payload (see above)."""
    metadata = record.get(name)
    if name == "artifact" and isinstance(metadata, dict):
        name = str(metadata.get("name"))
    if name not in UNREAD_PAYLOADS:
        return False
    return all(getattr(handler, OUR_HANDLER, False) for handler in _internal.trace_log.handlers)


def _never_compiled(function: Callable[..., Any]) -> None:
    """Dynamo leaves ``function`` to Python, even when called inside compiled code.

    ``trace_structured`` runs inside a compiled region (as a training step compiles its
    backward); Dynamo skips it as torch's own file, but would convert the function it now
    calls, from our file: a compile of symdebug's code counted as the user's, and every
    later compile id shifted by one.
    """
    from torch._dynamo.eval_frame import skip_code  # torch's Dynamo, loaded by the capture

    skip_code(function.__code__)


@functools.cache
def _adapted_code() -> CodeType | None:
    """``trace_structured``'s code with each change whose text it still holds, or None."""
    function = _internal.trace_structured
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None
    source = textwrap.dedent("".join(lines))
    changes = [(a, b) for a, b in ((_HASHED, _TOLERANT), (_BUILT, _SPARED)) if source.count(a) == 1]
    if not changes or not source.startswith("def "):
        return None
    adapted = functools.reduce(lambda text, change: text.replace(*change), changes, source)
    padded = "\n" * (first - 1) + adapted  # tracebacks keep torch's line numbers
    function.__globals__.setdefault(OUR_HANDLER, _payload_unread)
    _never_compiled(_payload_unread)
    namespace: dict[str, Any] = {}
    exec(compile(padded, function.__code__.co_filename, "exec"), function.__globals__, namespace)  # noqa: S102
    code: CodeType = namespace[function.__name__].__code__
    return code if code.co_freevars == function.__code__.co_freevars else None


def _adapted() -> Callable[[], None]:
    function = _internal.trace_structured
    original, adapted = function.__code__, _adapted_code()
    if adapted is not None:
        function.__code__ = adapted

    def undo() -> None:
        function.__code__ = original

    return undo


_ADAPTED = Held(_adapted)


def trace_structured_adapted() -> AbstractContextManager[None]:
    """Non-UTF-8 text hashed as without capture; payloads nobody reads left out (see above)."""
    return _ADAPTED.held()

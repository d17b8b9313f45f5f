"""Records where the user marked a tensor's dims, while a capture runs.

Torch keeps a mark on the tensor (``_dynamo_static_indices``, ``_dynamo_dynamic_indices``)
and never says which line made it, so a recompile a mark caused would point at the
compiled function.  While capturing, ``torch._dynamo``'s marking functions are wrapped:
each call is recorded with the caller's line, the dims and the tensor's shape then.  The
wrapper never changes what the call does, returns or raises.
"""

from __future__ import annotations

import contextlib
import functools
import linecache
import sys
from collections.abc import Callable, Iterator
from types import FrameType, ModuleType
from typing import Any

from symdebug.events import EventStream

#: The marking functions, as ``torch._dynamo`` and its ``decorators`` module export them.
MARKS = ("mark_static", "mark_dynamic", "maybe_mark_dynamic", "mark_unbacked")


def _frame(frame: FrameType) -> dict[str, Any]:
    """As ``symdebug.model.types.Frame`` takes it (the builder makes the ``MarkSite``)."""
    code = frame.f_code
    line = linecache.getline(code.co_filename, frame.f_lineno).strip()
    return {
        "filename": code.co_filename,
        "lineno": frame.f_lineno,
        "name": code.co_name,
        "line": line,
    }


def _in_torch(filename: str) -> bool:
    """Whether torch itself called (marking each dim of a list): not the user."""
    return "/torch/" in filename.replace("\\", "/")


def _dims(index: Any) -> list[int]:
    return [index] if isinstance(index, int) else [i for i in index if isinstance(i, int)]


def _sites(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], where: dict[str, Any]
) -> list[dict[str, Any]]:
    """One site per dim marked (``mark_dynamic(x, [0, 1])`` marks two)."""
    tensor, index = (*args, None, None)[:2]
    index = kwargs.get("index", index)
    shape = [int(n) for n in getattr(tensor, "shape", ())]
    bounds = {"min": kwargs.get("min"), "max": kwargs.get("max")}
    return [
        {"function": name, "dim": dim, "shape": shape, "frame": where, **bounds}
        for dim in _dims(index)
    ]


def _wrapper(function: Callable[..., Any], stream: EventStream) -> Callable[..., Any]:
    name = function.__name__

    @functools.wraps(function)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        try:
            caller = sys._getframe(1)
            if not _in_torch(caller.f_code.co_filename):
                stream.marks += _sites(name, args, kwargs, _frame(caller))
        except Exception:  # noqa: BLE001,S110 - recording must never break the user's mark
            pass
        return function(*args, **kwargs)

    recorded.__symdebug_wrapped__ = function  # type: ignore[attr-defined]
    return recorded


def _modules() -> list[ModuleType]:
    # lazy: torch._dynamo loads when a capture starts, not with this module
    import torch._dynamo  # noqa: PLC0415
    import torch._dynamo.decorators  # noqa: PLC0415

    return [torch._dynamo, torch._dynamo.decorators]


@contextlib.contextmanager
def marks_recorded(stream: EventStream) -> Iterator[None]:
    """Wrap the marking functions for the duration (restored on exit)."""
    patched: list[tuple[ModuleType, str, Any]] = []
    for module in _modules():
        for name in MARKS:
            function = getattr(module, name, None)
            if callable(function) and not hasattr(function, "__symdebug_wrapped__"):
                patched.append((module, name, function))
                setattr(module, name, _wrapper(function, stream))
    try:
        yield
    finally:
        for module, name, function in patched:
            setattr(module, name, function)

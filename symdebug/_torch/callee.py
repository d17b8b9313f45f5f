"""The callable a user compiled, behind the frame Dynamo compiles (read while it runs).

``torch.compile(module)`` may compile a wrapper: torch's ``external_utils.inner(*args,
**kwargs)`` (``wrap_top_frame``, a ``torch.nn`` module) or a library decorator such as
Hugging Face's ``wrapper(self, *args, **kwargs)``.  Its inputs are then ``L['args'][0]``;
the user knows them as the parameters of ``forward``.  This finds the wrapped callable and
names each wrapper input after its parameter.
"""

from __future__ import annotations

import inspect
from typing import Any

_CALLABLE_NAMES = ("fn", "func", "f", "function", "method", "forward")


def _wrapped(code: Any, f_locals: dict[str, Any]) -> tuple[Any, Any] | None:
    """``(callable, owner)`` a wrapper frame calls: a module or function held in a closure."""
    names = sorted(code.co_freevars, key=lambda n: n not in _CALLABLE_NAMES)
    for name in names:
        value = _unwrapped(f_locals.get(name))
        if _is_module(value):
            return value.forward, value
        if inspect.isfunction(value):
            return value, f_locals.get("self")
    return None


def _unwrapped(value: Any) -> Any:
    """Through ``functools.wraps`` layers (torch's ``inner`` wraps a module this way)."""
    for _ in range(16):
        inner = getattr(value, "__wrapped__", None) if inspect.isfunction(value) else None
        if inner is None:
            return value
        value = inner
    return value


def _is_module(value: Any) -> bool:
    import torch

    return isinstance(value, torch.nn.Module)


def _parameters(target: Any, bound: bool) -> list[str]:
    """The positional-or-keyword parameter names of ``target`` (without ``self`` if bound)."""
    try:
        parameters = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in parameters if p.kind in kinds]
    return names[1:] if bound and names else names


def _input_names(code: Any, parameters: list[str]) -> dict[str, str]:
    """``{"L['args'][0]": "x", "L['kwargs']['x']": "x"}`` for a ``*args, **kwargs`` frame."""
    varargs = code.co_varnames[code.co_argcount + code.co_kwonlyargcount]
    names = {f"L['{varargs}'][{i}]": name for i, name in enumerate(parameters)}
    if code.co_flags & inspect.CO_VARKEYWORDS:
        index = code.co_argcount + code.co_kwonlyargcount + 1
        names.update({f"L['{code.co_varnames[index]}']['{p}']": p for p in parameters})
    return names


def _qualname(target: Any, owner: Any) -> str:
    name = getattr(target, "__name__", "") or "?"
    if owner is not None and not inspect.isclass(owner):  # the class the call ran on
        return f"{type(owner).__name__}.{name}"
    return str(getattr(target, "__qualname__", name))


def callee_of(code: Any, f_locals: dict[str, Any]) -> dict[str, Any]:
    """What the user compiled: its qualified name, file, line and the wrapper inputs' names.

    A frame that is no wrapper (no ``*args``, or nothing callable in its closure) is the
    callee itself: its ``co_qualname`` (``MyModule.forward``) and no renamed inputs.
    """
    qualname = str(getattr(code, "co_qualname", code.co_name)).rsplit("<locals>.", 1)[-1]
    plain: dict[str, Any] = {"qualname": qualname, "names": {}}
    if not code.co_flags & inspect.CO_VARARGS:
        return plain
    found = _wrapped(code, f_locals)
    if found is None:
        return plain
    target, owner = found
    code_of = getattr(inspect.unwrap(target), "__code__", None)
    drop_self = owner is not None and not inspect.ismethod(target)
    return {
        "qualname": _qualname(target, owner),
        "filename": getattr(code_of, "co_filename", ""),
        "lineno": getattr(code_of, "co_firstlineno", 0),
        "names": _input_names(code, _parameters(target, drop_self)),
    }

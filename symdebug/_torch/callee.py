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


def _input_names(code: Any, parameters: list[str], f_locals: dict[str, Any]) -> dict[str, str]:
    """``{"L['args'][0]": "x", "L['kwargs']['x']": "x"}`` for a ``*args, **kwargs`` frame.

    A keyword the call passed is named as the caller wrote it, also one that ``forward``
    takes in its own ``**kwargs`` (a deprecated name such as ``past_key_values``).
    """
    varargs = code.co_varnames[code.co_argcount + code.co_kwonlyargcount]
    names = {f"L['{varargs}'][{i}]": name for i, name in enumerate(parameters)}
    if code.co_flags & inspect.CO_VARKEYWORDS:
        varkeywords = code.co_varnames[code.co_argcount + code.co_kwonlyargcount + 1]
        passed = f_locals.get(varkeywords)
        keywords = (
            [*parameters, *(k for k in passed if isinstance(k, str))]
            if isinstance(passed, dict)
            else parameters
        )
        names.update({f"L['{varkeywords}']['{k}']": k for k in keywords})
    return names


def _qualname(target: Any, owner: Any) -> str:
    name = getattr(target, "__name__", "") or "?"
    if owner is not None and not inspect.isclass(owner):  # the class the call ran on
        return f"{type(owner).__name__}.{name}"
    return str(getattr(target, "__qualname__", name))


def _flat_names(parameters: list[str], spec: Any) -> dict[str, str]:
    """``{"L['flat_args'][0]": "x"}`` where the flattened ``(args, kwargs)`` are all leaves.

    A nested input (a list, a dict) flattens to several leaves: no name is then given.
    """
    try:
        args, kwargs = spec.children()
        leaves = [*args.children(), *kwargs.children()]
        if not all(leaf.is_leaf() for leaf in leaves):
            return {}
        names = parameters[: args.num_children] + [str(k) for k in kwargs.context]
    except (AttributeError, TypeError, ValueError):  # another torch's tracer: no names
        return {}
    return {f"L['flat_args'][{i}]": name for i, name in enumerate(names)}


def _export_callee(f_locals: dict[str, Any]) -> dict[str, Any] | None:
    """The module a strict ``torch.export`` traces behind its ``ModuleToTrace.forward``."""
    tracer = f_locals.get("self")
    root = getattr(tracer, "_export_root", None)
    if root is None or not _is_module(root):
        return None
    code_of = getattr(inspect.unwrap(root.forward), "__code__", None)
    return {
        "qualname": _qualname(root.forward, root),
        "filename": getattr(code_of, "co_filename", ""),
        "lineno": getattr(code_of, "co_firstlineno", 0),
        "names": _flat_names(_parameters(root.forward, False), getattr(tracer, "in_spec", None)),
    }


def callee_of(code: Any, f_locals: dict[str, Any]) -> dict[str, Any]:
    """What the user compiled: its qualified name, file, line and the wrapper inputs' names.

    A frame that is no wrapper (no ``*args``, or nothing callable in its closure) is the
    callee itself: its ``co_qualname`` (``MyModule.forward``) and no renamed inputs.
    """
    qualname = str(getattr(code, "co_qualname", code.co_name)).rsplit("<locals>.", 1)[-1]
    plain: dict[str, Any] = {"qualname": qualname, "names": {}}
    if not code.co_flags & inspect.CO_VARARGS:
        return plain
    exported = _export_callee(f_locals) if code.co_name == "forward" else None
    if exported is not None:
        return exported
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
        "names": _input_names(code, _parameters(target, drop_self), f_locals),
    }

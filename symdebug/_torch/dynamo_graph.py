"""The frame Dynamo is compiling (torch/_dynamo/symbolic_convert.py), read while it runs.

Read at the ``dynamo_output_graph`` event: the code object is what the cache entries hang
on, and its signature binds call arguments to sources for prediction.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

from symdebug._torch.callee import callee_of


def graph_inputs_snapshot() -> dict[str, Any] | None:
    """Code object and signature of the frame being compiled.

    (Input sizes, dtypes and sources come from the ``describe_*`` events, live and in logs.)
    """
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        tx = InstructionTranslator.current_tx()
    except (AttributeError, IndexError, RuntimeError):
        return None
    if tx is None:
        return None
    code = tx.f_code
    f_locals = getattr(tx, "f_locals", None)
    return {
        "callee": callee_of(code, f_locals if isinstance(f_locals, dict) else {}),
        "code": {"name": code.co_name, "filename": code.co_filename, "lineno": code.co_firstlineno},
        "signature": signature_of(code),
    }


def signature_of(code: Any) -> dict[str, Any]:
    """Parameter names of a code object, and its ``*args``/``**kwargs`` names."""
    count = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:count])
    varargs = code.co_varnames[count] if code.co_flags & inspect.CO_VARARGS else None
    index = count + (1 if varargs else 0)
    varkw = code.co_varnames[index] if code.co_flags & inspect.CO_VARKEYWORDS else None
    return {"names": names, "positional": code.co_argcount, "varargs": varargs, "varkw": varkw}


def code_object_of_current_frame() -> Any:
    """The code object Dynamo caches on (``external_utils.inner`` for compiled modules)."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        return InstructionTranslator.current_tx().f_code
    except (AttributeError, IndexError, RuntimeError):
        return None


def receiver_of_current_frame() -> Any:
    """The ``self`` of the frame being compiled (a module's forward), or None.

    A decorator's wrapper (``wrapped_func(*args, **kwargs)``, as transformers puts around a
    model's ``forward``) is called with the module first in ``args``: that one is returned
    when the callee names it ``self`` (never a function's first argument).
    """
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        tx = InstructionTranslator.current_tx()
        f_locals = tx.f_locals
    except (AttributeError, IndexError, RuntimeError):
        return None
    return _receiver_in(tx.f_code, f_locals)


def _receiver_in(code: Any, f_locals: Any) -> Any:
    """The ``self`` among a frame's locals (first of ``*args`` where the callee names it)."""
    if not isinstance(f_locals, dict):
        return None
    if "self" in f_locals:
        return f_locals["self"]
    varargs = signature_of(code)["varargs"]
    passed = f_locals.get(varargs) if varargs else None
    if not isinstance(passed, tuple) or not passed:
        return None
    names = callee_of(code, f_locals).get("names", {})
    return passed[0] if names.get(f"L[{varargs!r}][0]") == "self" else None


#: Where torch 2.13 compiles one frame: ``convert_frame._compile(code, globals, locals, ...)``
#: logs ``dynamo_start`` before any tracer exists.
_COMPILE = ("_compile", "convert_frame.py")


def frame_at_compile_start() -> tuple[Any, dict[str, Any] | None]:
    """The ``self`` and the module globals of the frame whose compile starts, or Nones.

    Read at ``dynamo_start`` from the arguments of torch's ``_compile`` on the Python stack:
    a compile that makes no graph (it breaks before any op) has no ``dynamo_output_graph``
    event to read its frame at.
    """
    frame: Any = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == _COMPILE[0] and code.co_filename.endswith(_COMPILE[1]):
            arguments = frame.f_locals
            module_globals = arguments.get("globals")
            receiver = _receiver_in(arguments.get("code"), arguments.get("locals"))
            return receiver, module_globals if isinstance(module_globals, dict) else None
        frame = frame.f_back
    return None, None


#: Files whose frames lie between the user's call and Dynamo's compile.
_PASSED_THROUGH = ("contextlib.py", "functools.py")


def _passed_through(filename: str) -> bool:
    import torch

    return filename.startswith(str(Path(torch.__file__).parent)) or filename.endswith(
        _PASSED_THROUGH
    )


def _calling_frame() -> Any:
    """The user's frame that called the frame whose compile starts, from the Python stack."""
    frame: Any = sys._getframe(1)
    while frame is not None and not _is_compile(frame.f_code):
        frame = frame.f_back
    while frame is not None and _passed_through(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def _is_compile(code: Any) -> bool:
    return bool(code.co_name == _COMPILE[0] and code.co_filename.endswith(_COMPILE[1]))


def with_calling_line(body: dict[str, Any]) -> dict[str, Any]:
    """``dynamo_start``'s stack with the line that called the compiled frame put back.

    torch 2.13's ``log_dynamo_start`` skips one frame too many (``CapturedTraceback.extract(
    skip=4 + skip)`` counts for the frame ``log_dynamo_start`` itself once added), so the
    innermost caller is missing from every ``dynamo_start`` stack: a compiled function
    called at module level has no caller at all.  Live, the Python stack still holds it.
    """
    stack = body.get("stack")
    caller = _calling_frame()
    if not isinstance(stack, list) or not stack or caller is None:
        return body
    said = {"line": caller.f_lineno, "name": caller.f_code.co_name}
    above = stack[-2] if len(stack) > 1 else {}
    if isinstance(above, dict) and all(above.get(k) == v for k, v in said.items()):
        return body  # torch kept it (a torch release that fixed the skip)
    frame = {**said, "filename": caller.f_code.co_filename}
    return {**body, "stack": [*stack[:-1], frame, stack[-1]]}

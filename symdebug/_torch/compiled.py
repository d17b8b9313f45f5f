"""What ``torch.compile`` returns, and the eager callable behind it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import CodeType, FunctionType
from typing import Any


def original_callable(compiled: Any) -> Any:
    """The eager function or module a ``torch.compile`` result wraps (itself if not one)."""
    module = getattr(compiled, "_orig_mod", None)  # OptimizedModule
    if module is not None:
        return module
    return getattr(compiled, "_torchdynamo_orig_callable", None) or getattr(
        compiled, "__wrapped__", compiled
    )


def is_compile_result(value: Any) -> bool:
    """True for what ``torch.compile`` returns (a wrapped function or an ``OptimizedModule``)."""
    return hasattr(value, "_torchdynamo_orig_callable")


#: ``before(original, args, kwargs) -> (args, kwargs)``: runs before each compiled call.
BeforeCall = Callable[
    [Any, tuple[Any, ...], dict[str, Any]], tuple[tuple[Any, ...], dict[str, Any]]
]


def _wrapper_code() -> CodeType:
    """The code of torch's ``compile_wrapper``: every ``torch.compile`` result runs it.

    ``torch/_dynamo/eval_frame.py`` (``_TorchDynamoContext.__call__``): the closure's ``fn``
    is what runs with Dynamo's frame hook set, an ``OptimizedModule``'s ``forward`` too.
    """
    import torch

    code: CodeType = torch.compile(lambda: None, backend="eager").__code__
    return code


def _calling(original: Any, before: BeforeCall) -> Any:
    """``original`` with ``before`` run first, outside Dynamo (it must not be compiled)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = before(original, args, kwargs)
        return original(*args, **kwargs)

    return call


def _hook_into(wrapper: FunctionType, before: BeforeCall, undo: list[Callable[[], None]]) -> None:
    """Have one ``compile_wrapper`` call ``before`` ahead of what it compiles."""
    cells = dict(zip(wrapper.__code__.co_freevars, wrapper.__closure__ or (), strict=True))
    cell = cells.get("fn")
    if cell is None or hasattr(cell.cell_contents, "_symdebug_before"):
        return
    original = cell.cell_contents
    hooked = _calling(original, before)
    hooked._symdebug_before = True
    cell.cell_contents = hooked
    undo.append(lambda: setattr(cell, "cell_contents", original))


@contextmanager
def before_each_compiled_call(before: BeforeCall, objects: Iterable[object]) -> Iterator[None]:
    """Every ``torch.compile`` result of this process, existing and new, runs ``before`` first.

    The wrappers that exist are found among ``objects`` (the live ones); new ones are hooked
    as ``torch.compile`` makes them.  All are unhooked after the block.
    """
    import torch
    from torch._dynamo import eval_frame
    from torch._dynamo.decorators import skip

    code = _wrapper_code()
    skip(_calling(None, before))  # the hook's own frame runs eagerly; what it calls is compiled
    outside: BeforeCall = torch._dynamo.disable(before)  # type: ignore[no-untyped-call]
    undo: list[Callable[[], None]] = []
    for item in objects:
        if (
            type(item) is FunctionType and item.__code__ is code
        ):  # a dead weakproxy raises on isinstance
            _hook_into(item, outside, undo)
    make = eval_frame._TorchDynamoContext.__call__

    def hooked_make(self: Any, fn: Any) -> Any:
        result = make(self, fn)
        if isinstance(result, FunctionType) and result.__code__ is code:
            _hook_into(result, outside, undo)
        return result

    eval_frame._TorchDynamoContext.__call__ = hooked_make  # type: ignore[method-assign]
    try:
        yield
    finally:
        eval_frame._TorchDynamoContext.__call__ = make  # type: ignore[method-assign]
        for step in reversed(undo):
            step()

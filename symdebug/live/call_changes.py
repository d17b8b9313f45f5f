"""Marks and conversions made on the arguments of each compiled call, as a caller would.

The call's arguments are named as Dynamo names them (``L['x']``, ``L['self'].cache``,
``L['batch']['mask']``): bound to the signature of what was compiled, the module's
``forward`` for a compiled module.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch

from symdebug._torch.compiled import before_each_compiled_call
from symdebug._torch.marks import is_module, mark
from symdebug.live.changes import Change, Conversion, FrameRef, Mark
from symdebug.live.heap import every_object


def _target(original: Any) -> tuple[Any, Any]:
    """The Python function that was compiled, and the module it is bound to (or None)."""
    owner = getattr(original, "__self__", None)
    if owner is not None and is_module(owner):  # a decorated forward: the function under it
        return inspect.unwrap(type(owner).forward), owner
    return getattr(original, "__func__", original), getattr(original, "__self__", None)


def _frame(function: Any) -> FrameRef | None:
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    return FrameRef(Path(code.co_filename).name, code.co_firstlineno)


class Call:
    """One compiled call's arguments, bound to the compiled function's parameters."""

    def __init__(self, original: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        function, owner = _target(original)
        self.frame = _frame(function)
        self.owner = owner
        full = (owner, *args) if owner is not None else args
        self.bound = inspect.signature(function).bind(*full, **kwargs)
        self.bound.apply_defaults()
        #: As torch's wrapper frame around a module sees the call: ``L['kwargs']['ids']``.
        self.raw = {"self": owner, "args": args, "kwargs": kwargs}
        self.args, self.kwargs = list(args), dict(kwargs)
        self.positions = list(self.bound.signature.parameters)[len(full) - len(args) :]

    def applies(self, frame: FrameRef | None) -> bool:
        """Whether a change for ``frame`` (None: any frame) is about this call."""
        return frame is None or frame == self.frame

    def value(self, source: str) -> Any:
        """What Dynamo's ``source`` names in this call; KeyError when it names nothing."""
        node = ast.parse(source, mode="eval").body
        try:
            return _evaluated(node, dict(self.bound.arguments))
        except (KeyError, AttributeError, IndexError, TypeError):
            return _evaluated(node, self.raw)

    def replace(self, name: str, value: Any) -> None:
        """Pass ``value`` for the parameter ``name``, where the caller passed it.

        The call keeps its shape (a keyword stays a keyword): Dynamo names the inputs of
        a wrapper frame by how they were passed (``L['kwargs']['input_ids']``).
        """
        if name in self.kwargs:
            self.kwargs[name] = value
        elif name in self.positions and self.positions.index(name) < len(self.args):
            self.args[self.positions.index(name)] = value

    def arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The (possibly converted) arguments, as the call passes them on."""
        return tuple(self.args), dict(self.kwargs)


def _evaluated(node: ast.expr, names: dict[str, Any]) -> Any:
    """``L['x'].cache['k']``: item and attribute reads only, nothing else runs."""
    if isinstance(node, ast.Name) and node.id == "L":
        return names
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return _evaluated(node.value, names)[node.slice.value]
    if isinstance(node, ast.Attribute):
        return getattr(_evaluated(node.value, names), node.attr)
    raise KeyError(ast.unparse(node))


def _mark(call: Call, one: Mark) -> None:
    if call.applies(one.frame):
        try:
            tensor = call.value(one.source)
        except (KeyError, AttributeError, IndexError, TypeError):
            return  # this call does not pass it (a key left out): as ``if 'k' in d:`` would
        mark(one.function, tensor, one.dim)


def _convert(call: Call, one: Conversion) -> None:
    if call.applies(one.frame) and one.name in call.bound.arguments:
        value = call.bound.arguments[one.name]
        namespace = {"torch": torch, one.name: value}
        call.replace(one.name, eval(one.expression, namespace))  # noqa: S307 - a fix's own code


@contextmanager
def calls_changed(changes: tuple[Change, ...]) -> Iterator[None]:
    """Each compiled call of the block gets the changes' marks and conversions first."""
    marks = [m for change in changes for m in change.marks]
    conversions = [c for change in changes for c in change.conversions]
    if not marks and not conversions:
        yield
        return

    def before(
        original: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        try:
            call = Call(original, args, kwargs)
        except (TypeError, ValueError):  # a call its signature cannot bind: torch will say
            return args, kwargs
        for one in conversions:
            _convert(call, one)
        for each in marks:
            _mark(call, each)
        return call.arguments()

    with before_each_compiled_call(before, every_object()):
        yield

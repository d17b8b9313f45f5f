"""The conversions "in the caller" a replay may run: only those symdebug's fixes write.

A replay evaluates a conversion's right side on each call's argument (``n`` for
``n = torch.as_tensor(n)``).  A fix's text may come from a saved session, someone else's
file, so the right side is accepted only when it is a call built from the argument itself,
constants and torch's public names: ``torch.as_tensor(n)``, ``x.to(torch.float32)``,
``x.contiguous()``, ``xs = torch.nn.utils.rnn.pad_sequence(xs, batch_first=True)``,
``x.reshape(-1, *x.shape[-1:])``.  No other name, no attribute starting with ``_``, no
lambda, comprehension or subscript of anything but ``name.shape``.
"""

from __future__ import annotations

import ast


def is_caller_conversion(value: ast.expr, name: str) -> bool:
    """Whether ``value`` is a conversion of ``name`` that a replay may evaluate."""
    return isinstance(value, ast.Call) and _mentions(value, name) and _allowed(value, name)


def _mentions(node: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _allowed(node: ast.expr, name: str) -> bool:
    if isinstance(node, ast.Constant | ast.Name):
        return _is_leaf(node, name)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _allowed(node.operand, name)
    if isinstance(node, ast.Starred):
        return _allowed(node.value, name)
    if isinstance(node, ast.Subscript):
        return _is_shape(node.value, name) and _is_index(node.slice, name)
    if isinstance(node, ast.Call):
        return _is_callable(node.func, name) and _arguments_allowed(node, name)
    return _is_torch_name(node)


def _is_leaf(node: ast.Constant | ast.Name, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name
    return isinstance(node.value, int | float | str | bool | type(None))


def _arguments_allowed(call: ast.Call, name: str) -> bool:
    keywords = all(k.arg is not None and _allowed(k.value, name) for k in call.keywords)
    return keywords and all(_allowed(arg, name) for arg in call.args)


def _is_callable(func: ast.expr, name: str) -> bool:
    """``torch.as_tensor``, or a public method of the argument (``x.to``)."""
    if isinstance(func, ast.Attribute) and _is_name(func.value, name):
        return not func.attr.startswith("_")
    return _is_torch_name(func)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _is_torch_name(node: ast.expr) -> bool:
    """``torch.float32``, ``torch.nn.utils.rnn.pad_sequence``: public names of torch."""
    while isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "torch"


def _is_shape(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "shape" and _is_name(node.value, name)


def _is_index(node: ast.expr, name: str) -> bool:
    if isinstance(node, ast.Slice):
        parts = (node.lower, node.upper, node.step)
        return all(part is None or _allowed(part, name) for part in parts)
    return _allowed(node, name)

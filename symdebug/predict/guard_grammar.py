"""The guard grammar: the only check texts a prediction compiles and evaluates.

A check's text comes from a saved session (``compiles[].shape_checks[].code``) or a log's
guard tree (``LAMBDA_GUARD:`` lines): someone else's file, opened to help them.  An empty
``__builtins__`` does not make ``eval`` safe (``().__class__.__base__.__subclasses__()``
reaches ``os.system``), so every text is parsed with :mod:`ast` and accepted only when each
node is one torch writes in a shape check:

- sources: ``L['x']`` or ``G['y']``, then constant items, attributes (``__defaults__``
  too) and the tensor methods torch calls with no arguments (``.size()``, ``.stride()``).
  ``type(...)`` and ``dict(...)`` around a source are part of it, as torch writes them.
  A source is never evaluated: it names a value that the call's own arguments give;
- numbers, strings, ``True``/``False``/``None`` and tuples of them;
- arithmetic, comparisons, ``and``/``or``/``not``;
- calls of ``len``, ``max``, ``min``, ``abs``, ``int``, ``float``, ``round`` and of
  ``math.<f>``/``torch.<f>`` for the few functions torch prints (``math.ceil``,
  ``torch.sym_max``), positional arguments only.

Anything else (a lambda, a comprehension, a walrus, an f-string, a name or attribute
outside these) is refused with :class:`NotAGuardCheckError`, naming what was found: the
prediction then lists the check as not evaluated (unsure), and its text never runs.
"""

from __future__ import annotations

import ast
from types import UnionType

#: The tensor methods a source may call, always without arguments.
SOURCE_METHODS = frozenset({"size", "stride", "storage_offset", "dim", "numel"})
#: What torch wraps a source in to read a class's own attributes (``type(L['self'])``).
SOURCE_WRAPPERS = frozenset({"type", "dict"})
#: Functions a check may call by name, and the ``math.``/``torch.`` functions it may call.
FUNCTIONS = frozenset({"len", "max", "min", "abs", "int", "float", "round"})
MODULE_FUNCTIONS = frozenset(
    {
        "ceil",
        "floor",
        "trunc",
        "sqrt",
        "sym_float",
        "sym_int",
        "sym_max",
        "sym_min",
        "sym_sqrt",
        "isnan",
        "isinf",
        "isfinite",
    }
)
MODULES = frozenset({"math", "torch"})
_OPERATORS = (
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift,
)  # fmt: skip
_UNARY = (ast.UAdd, ast.USub, ast.Not, ast.Invert)
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
_CONSTANTS = (int, float, str, bool, type(None))
_ROOTS = frozenset({"L", "G"})


class NotAGuardCheckError(SyntaxError):
    """A check text outside the guard grammar: never compiled, never run."""


def guard_expression(text: str) -> ast.Expression:
    """``text`` parsed as one expression of the guard grammar.

    Raises
    ------
    SyntaxError
        When the text is no Python expression.
    NotAGuardCheckError
        When it is, but holds something no guard check holds (named in the message).
    """
    tree = ast.parse(text.strip(), mode="eval")
    refused = _refusal(tree.body)
    if refused is not None:
        raise NotAGuardCheckError(f"not a guard check ({refused}): {text.strip()[:200]}")
    return tree


def is_source(node: ast.expr) -> bool:
    """Whether ``node`` is a source: ``L['x']``, its items, attributes and sizes."""
    if isinstance(node, ast.Subscript):
        if isinstance(node.value, ast.Name):
            return node.value.id in _ROOTS and _is_key(node.slice, str)
        return is_source(node.value) and _is_key(node.slice, int | str)
    if isinstance(node, ast.Attribute):
        return is_source(node.value)  # any name (``__defaults__``): a source is never run
    return isinstance(node, ast.Call) and not node.keywords and _is_source_call(node)


def _is_source_call(node: ast.Call) -> bool:
    """``L['x'].size()``, or a source wrapped as torch wraps it (``type(L['self'])``)."""
    if isinstance(node.func, ast.Name):  # ``dict(type(L['self']).__dict__)``, as torch writes
        return node.func.id in SOURCE_WRAPPERS and len(node.args) == 1 and is_source(node.args[0])
    if isinstance(node.func, ast.Attribute):
        return not node.args and node.func.attr in SOURCE_METHODS and is_source(node.func.value)
    return False


def _refusal(node: ast.expr) -> str | None:
    """What in ``node`` no guard check holds, or None when every part is accepted."""
    if is_source(node) or (isinstance(node, ast.Constant) and type(node.value) in _CONSTANTS):
        return None
    if isinstance(node, ast.BinOp | ast.UnaryOp | ast.BoolOp | ast.Compare | ast.Tuple):
        wrong = _wrong_operator(node)
        return wrong or _first_refusal(_operands(node))
    if isinstance(node, ast.Call):
        return _call_refusal(node)
    return f"{type(node).__name__} {ast.unparse(node)[:60]!r}"


def _wrong_operator(node: ast.expr) -> str | None:
    if isinstance(node, ast.BinOp) and not isinstance(node.op, _OPERATORS):
        return f"operator {type(node.op).__name__}"
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, _UNARY):
        return f"operator {type(node.op).__name__}"
    if isinstance(node, ast.Compare):
        wrong = next((op for op in node.ops if not isinstance(op, _COMPARISONS)), None)
        return None if wrong is None else f"comparison {type(wrong).__name__}"
    if isinstance(node, ast.Tuple) and not isinstance(node.ctx, ast.Load):
        return "a tuple assigned to"
    return None


def _operands(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    return list(node.values) if isinstance(node, ast.BoolOp) else list(getattr(node, "elts", []))


def _call_refusal(node: ast.Call) -> str | None:
    if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
        return f"call with keywords or * {ast.unparse(node)[:60]!r}"
    if not _is_function(node.func):
        return f"call of {ast.unparse(node.func)[:60]!r}"
    return _first_refusal(node.args)


def _is_function(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in FUNCTIONS
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in MODULES
        and func.attr in MODULE_FUNCTIONS
    )


def _first_refusal(nodes: list[ast.expr]) -> str | None:
    return next((found for n in nodes if (found := _refusal(n)) is not None), None)


def _is_key(node: ast.expr, kind: type | UnionType) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, kind = node.operand, int  # ``size()[-1]``
    return isinstance(node, ast.Constant) and isinstance(node.value, kind)


def refusal(text: str) -> str:
    """Why a check text is not evaluated: it is no Python, or outside the guard grammar."""
    try:
        guard_expression(text)
    except NotAGuardCheckError as refused:
        return f"not evaluated: {refused.msg.split(': ', 1)[0]}"
    except SyntaxError:
        return "cannot be parsed"
    return "not evaluated"

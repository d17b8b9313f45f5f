"""A user line that takes a value as a Python int: ``range(n)``, ``int(n)``, ``[0] * n``.

Evidence of an int specialization that survives torch releases: the user's own code says
the value is used as an int, whatever torch function then took it (``specialize_symnode``
in 2.13, ``nb_index_impl`` from 2.14 on).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import lru_cache

#: Calls that take their argument's value as a Python int.
INT_CALLS = frozenset({"range", "int", "index", "__index__"})


def _statement(line: str) -> ast.AST | None:
    """The line parsed as a statement; a block's header (``for _ in range(n):``) too."""
    text = line.strip()
    if text.startswith(("elif ", "else")):
        text = "if " + text.removeprefix("el").removeprefix("if ").removeprefix("se")
    return _parsed(text) or _parsed(f"{text} pass") or _parsed(f"{text}\n    pass")


def _parsed(text: str) -> ast.AST | None:
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _called(function: ast.expr) -> str:
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else ""


def _int_operands(tree: ast.AST) -> Iterator[ast.expr]:
    """What the line uses as an int: a call's arguments, a list's repeat count."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node.func) in INT_CALLS:
            yield from node.args
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            sides = (node.left, node.right)
            if any(isinstance(side, ast.List | ast.Tuple | ast.Constant) for side in sides):
                yield from (s for s in sides if not isinstance(s, ast.List | ast.Tuple))


@lru_cache(maxsize=4096)
def uses_as_int(line: str, names: tuple[str, ...]) -> bool:
    """Whether ``line`` takes one of ``names`` (``n``, ``x.shape[0]``) as a Python int."""
    tree = _statement(line) if line else None
    if tree is None or not names:
        return False
    pattern = re.compile("|".join(rf"(?<![\w.]){re.escape(name)}(?![\w(])" for name in names))
    return any(pattern.search(ast.unparse(operand)) for operand in _int_operands(tree))

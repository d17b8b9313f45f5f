"""Where a compiled function first iterates over or indexes a list (a length check's line).

Torch words a failed length check ``len(feats) == 3`` and, when the guard was installed
while reading the argument itself, names no line: the line that made the length matter is
the first that loops over the list, indexes it, unpacks it or takes its ``len``.
"""

from __future__ import annotations

import ast

from symdebug.model.types import Compile, Frame
from symdebug.torchtext.source_text import parsed_source, source_line

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def list_use(compile_: Compile, subject: str) -> Frame | None:
    """The first line of the compiled function that uses list ``subject`` as a list."""
    function = _function_at(compile_.filename, compile_.lineno)
    if function is None:
        return None
    for node in sorted(ast.walk(function), key=_position):
        if _uses_as_list(node, subject):
            lineno = _position(node)[0]
            line = source_line(compile_.filename, lineno)
            return Frame(compile_.filename, lineno, compile_.name, line)
    return None


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _uses_as_list(node: ast.AST, subject: str) -> bool:
    """``for t in feats``, ``feats[0]``, ``len(feats)``, ``f(*feats)``, ``[... for t in feats]``."""
    if isinstance(node, ast.For | ast.comprehension):
        return _names(node.iter, subject)
    if isinstance(node, ast.Subscript):
        return _names(node.value, subject)
    if isinstance(node, ast.Starred):
        return _names(node.value, subject)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return len(node.args) == 1 and _names(node.args[0], subject)
    return False


def _names(node: ast.AST, subject: str) -> bool:
    """Whether an expression is ``subject`` (``feats``, ``self.feats``) as written."""
    try:
        return ast.unparse(node) == subject
    except (ValueError, TypeError):  # an expression unparse cannot write back
        return False


def _function_at(filename: str, lineno: int) -> _Function | None:
    """The function defined at ``lineno`` (its ``def`` or a decorator line), from the file."""
    tree = parsed_source(filename) if lineno > 0 else None  # none while a log is read
    if tree is None:
        return None
    functions = (node for node in ast.walk(tree) if isinstance(node, _Function))
    return next((node for node in functions if _defined_at(node, lineno)), None)


def _defined_at(node: _Function, lineno: int) -> bool:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first <= lineno <= node.lineno

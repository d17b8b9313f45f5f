"""A fix that edits the user's function, as a rewrite a replay swaps in, or why it cannot be."""

from __future__ import annotations

import ast
import linecache
from pathlib import Path

from symdebug.fixes.code_rewrites import (
    NotMechanical,
    not_mechanical_reason,
    rewrite,
    rewrite_kind,
)
from symdebug.live.changes import Change
from symdebug.live.fix_context import FixContext
from symdebug.live.trials import NotTried

BY_HAND = "no mechanical rewrite makes this change: it needs an edit by hand"


def _innermost(tree: ast.Module, lineno: int) -> tuple[ast.AST, str] | None:
    """The innermost function holding ``lineno``, with its qualified name."""
    found: tuple[ast.AST, str] | None = None
    stack: list[tuple[ast.AST, str]] = [(tree, "")]
    while stack:
        node, prefix = stack.pop()
        for child in ast.iter_child_nodes(node):
            name = getattr(child, "name", None)
            span = (getattr(child, "lineno", 0), getattr(child, "end_lineno", 0) or 0)
            inside = span[0] <= lineno <= span[1] if name else False
            if inside and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found = (child, f"{prefix}{name}")
            if inside:
                stack.append((child, f"{prefix}{name}."))
    return found


def source_at(filename: str, lineno: int) -> tuple[str, int, str] | None:
    """The source, first line and qualified name of the function holding a file's line.

    Read from the file (or a notebook cell linecache holds), so no function need be alive.
    """
    lines = linecache.getlines(filename)
    try:
        found = _innermost(ast.parse("".join(lines)), lineno) if lines else None
    except SyntaxError:
        return None
    if found is None:
        return None
    node, qualname = found
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]
    last = node.end_lineno  # type: ignore[attr-defined]
    return "".join(lines[first - 1 : last]), first, qualname


def rewrite_change(context: FixContext) -> Change | NotTried:
    """The rewrite of the function that holds the fix's user line, swapped in by a replay."""
    fix, user = context.fix, context.user_frame
    reason = not_mechanical_reason(fix.code)
    if reason is not None or rewrite_kind(fix.code) is None:
        return NotTried(fix, reason or BY_HAND)
    if user is None:
        return NotTried(fix, "the fix has no user line to rewrite")
    found = source_at(user.filename, user.lineno)
    if found is None:
        where = f"{Path(user.filename).name}:{user.lineno}"
        return NotTried(fix, f"the source of the function at {where} cannot be read here")
    source, first, qualname = found
    result = rewrite(
        source, first, user.lineno, fix.code, filename=user.filename, qualname=qualname
    )
    if isinstance(result, NotMechanical):
        return NotTried(fix, result.reason)
    return Change("code", result.changed_lines(), rewrite=result, fix=fix.code)

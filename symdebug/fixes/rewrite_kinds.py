"""The rewrites that change one expression or one statement: an index, a pad, a check, a print.

Each returns the edits and a line for people, or raises :class:`CannotRewriteError` with
the reason.  Lines are the function source's (from 1); messages give the file's.
"""

from __future__ import annotations

import ast
import builtins

from symdebug.fixes.fix_code import computed_index
from symdebug.fixes.rewrite_branches import is_elif
from symdebug.fixes.rewrite_names import bound_before, parameters, read_in
from symdebug.fixes.rewrite_source import (
    CannotRewriteError,
    Edit,
    FunctionSource,
    blocks,
    end_of,
    innermost_statement,
    start_of,
    statements,
)

Rewritten = tuple[list[Edit], str]


def index_rewrite(source: FunctionSource, line: int, fix_code: str) -> Rewritten:
    """The subscript on ``line`` whose index is computed from a size, replaced by the fix."""
    fix = ast.parse(fix_code.strip(), mode="eval").body
    tensor, dim = _indexed(fix)
    for node in _subscripts(source, line):
        use = computed_index(ast.unparse(node))
        if use is None or use.tensor != tensor or ast.unparse(node.value) != tensor:
            continue
        if not isinstance(node.ctx, ast.Load) and not isinstance(fix, ast.Subscript):
            continue  # `h[i] = v`: a call cannot be assigned to
        if dim is not None and dim != use.dim:
            continue
        new = fix_code.strip()
        if dim is not None:
            _only_that_dim(node, dim)
        if isinstance(fix, ast.Call) and ast.unparse(fix.func) == "torch.narrow":
            new += f".squeeze({dim})"  # narrow keeps the dim the index dropped
        old = source.node_text(node)
        return [Edit(start_of(node), end_of(node), new)], f"`{old}` as `{new}`"
    raise CannotRewriteError(
        f"line {source.file_line(line)} has no subscript of `{tensor}` with an index "
        "computed from a size"
    )


def _indexed(fix: ast.expr) -> tuple[str, int | None]:
    """What the fix indexes and, for ``select``/``narrow``, the dim it selects in."""
    if isinstance(fix, ast.Subscript):
        return ast.unparse(fix.value), None
    pair: tuple[ast.expr, ast.expr] | None = None
    if isinstance(fix, ast.Call) and ast.unparse(fix.func) == "torch.narrow" and len(fix.args) > 1:
        pair = fix.args[0], fix.args[1]
    elif isinstance(fix, ast.Call) and isinstance(fix.func, ast.Attribute) and fix.args:
        pair = (fix.func.value, fix.args[0]) if fix.func.attr == "select" else None
    if pair is not None and isinstance(pair[1], ast.Constant) and isinstance(pair[1].value, int):
        return ast.unparse(pair[0]), pair[1].value
    raise CannotRewriteError(f"`{ast.unparse(fix)}` is no index of a tensor")


def _subscripts(source: FunctionSource, line: int) -> list[ast.Subscript]:
    found = [
        n
        for n in ast.walk(source.node)
        if isinstance(n, ast.Subscript) and n.lineno <= line <= (n.end_lineno or 0)
    ]
    return sorted(found, key=lambda n: (n.lineno != line, start_of(n)))


def _only_that_dim(node: ast.Subscript, dim: int) -> None:
    """``select``/``narrow`` index one dim: every other item must be a bare ``:``."""
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for i, item in enumerate(items):
        bare = isinstance(item, ast.Slice) and not (item.lower or item.upper or item.step)
        if i != dim and not bare:
            raise CannotRewriteError(
                f"`{ast.unparse(node)}` also indexes other dims: the fix indexes dim {dim} only"
            )


def pad_rewrite(source: FunctionSource, line: int, fix_code: str) -> Rewritten:
    """The pad inserted before the statement on ``line``, where its tensor is bound."""
    fix = ast.parse(fix_code.strip()).body[0]
    if not isinstance(fix, ast.Assign) or not isinstance(fix.targets[0], ast.Name):
        raise CannotRewriteError(f"`{fix_code}` is no assignment of a tensor")
    name = fix.targets[0].id
    statement = _statement_at(source, line)
    if name not in bound_before(source.node, start_of(statement)):
        raise CannotRewriteError(
            f"`{name}` is neither a parameter nor assigned before line {source.file_line(line)}"
        )
    what = f"`{fix_code.strip()}` before line {source.file_line(statement.lineno)}"
    return [_before(source, statement, fix_code.strip())], what


def check_rewrite(source: FunctionSource, line: int, fix_code: str) -> Rewritten:
    """The check inserted right after the last assignment of its names before ``line``."""
    names = read_in([ast.parse(fix_code.strip()).body[0]]) - {"torch", *dir(builtins)}
    made = [
        s
        for s in statements(source.node)
        if s.lineno < line and not _compound(s) and names & _targets(s)
    ]
    text = fix_code.strip()
    if made:
        last = max(made, key=lambda s: (s.lineno, s.col_offset))
        return [_after(source, last, text)], f"`{text}` after line {source.file_line(last.lineno)}"
    if names and names <= set(parameters(source.node)):  # inputs: check them where used
        statement = _statement_at(source, line)
        return [_before(source, statement, text)], f"`{text}` before line {source.file_line(line)}"
    missing = ", ".join(f"`{n}`" for n in sorted(names)) or "its value"
    raise CannotRewriteError(f"no statement before line {source.file_line(line)} assigns {missing}")


def _compound(statement: ast.stmt) -> bool:
    return hasattr(statement, "body")


def _targets(statement: ast.stmt) -> set[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    if isinstance(statement, ast.AugAssign | ast.AnnAssign):
        targets = [statement.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _statement_at(source: FunctionSource, line: int) -> ast.stmt:
    statement = innermost_statement(source.node, line)
    where = f"line {source.file_line(line)}"
    if statement is None:
        raise CannotRewriteError(f"{where} holds no statement of the function")
    if is_elif(source, statement):
        raise CannotRewriteError(f"{where} is an `elif`: no statement can go right before it")
    return statement


def _before(source: FunctionSource, statement: ast.stmt, text: str) -> Edit:
    """A statement inserted before another: its own line, or ``text; `` on a shared line."""
    if source.starts_line(statement):
        indent = source.indent(statement.lineno)
        return Edit((statement.lineno, 0), (statement.lineno, 0), f"{indent}{text}\n")
    return Edit(start_of(statement), start_of(statement), f"{text}; ")


def _after(source: FunctionSource, statement: ast.stmt, text: str) -> Edit:
    """A statement inserted after another: its own line, or ``; text`` on a shared line."""
    end = statement.end_lineno or statement.lineno
    if source.starts_line(statement) and source.ends_line(statement):
        indent = source.indent(statement.lineno)
        return Edit((end + 1, 0), (end + 1, 0), f"{indent}{text}\n")
    return Edit(end_of(statement), end_of(statement), f"; {text}")


def print_rewrite(source: FunctionSource, line: int) -> Rewritten:
    """The print statements on ``line`` removed; ``pass`` where a block would be left empty."""
    prints = [s for s in statements(source.node) if _is_print(s) and s.lineno <= line <= _end(s)]
    if not prints:
        raise CannotRewriteError(f"line {source.file_line(line)} holds no `print(...)` statement")
    removed = {id(s) for s in prints}
    edits = [
        _removal(source, block, run)
        for block in blocks(source.node)
        for run in _runs(block, removed)
    ]
    return edits, f"print removed from line {source.file_line(line)}"


def _is_print(statement: ast.stmt) -> bool:
    call = statement.value if isinstance(statement, ast.Expr) else None
    return isinstance(call, ast.Call) and ast.unparse(call.func) == "print"


def _end(statement: ast.stmt) -> int:
    return statement.end_lineno or statement.lineno


def _runs(block: list[ast.stmt], removed: set[int]) -> list[tuple[int, int]]:
    """The ``(first, last)`` indices of each run of removed statements in the block."""
    runs: list[tuple[int, int]] = []
    for i, statement in enumerate(block):
        if id(statement) not in removed:
            continue
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _removal(source: FunctionSource, block: list[ast.stmt], run: tuple[int, int]) -> Edit:
    """The edit that removes a run of statements, with the ``;`` that joined them to others."""
    first, last = block[run[0]], block[run[1]]
    if run == (0, len(block) - 1):  # the whole block: it needs a statement
        return Edit(start_of(first), end_of(last), "pass")
    if source.starts_line(first) and source.ends_line(last):
        return Edit((first.lineno, 0), (_end(last) + 1, 0), "")
    after = block[run[1] + 1] if run[1] + 1 < len(block) else None
    if after is not None and after.lineno == _end(last):
        return Edit(start_of(first), start_of(after), "")
    return Edit(end_of(block[run[0] - 1]), end_of(last), "")

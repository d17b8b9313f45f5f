"""``torch.cond`` in place of an ``if`` on a size: each side a function, one call to choose.

Each side becomes a function of the locals it reads, passed in as operands.

Two shapes are mechanical: both sides end with ``return`` (an ``if`` without ``else``
followed by the rest of its block ending in ``return`` counts), or both sides end by
assigning one name.  Anything a function cannot do in place of inline code (return early,
``break`` the loop around, ``yield``, rebind a ``global``, leave another name for the code
after) makes the rewrite not mechanical, with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from symdebug.fixes.rewrite_branches import Sides, branch_names, cond_text
from symdebug.fixes.rewrite_names import (
    bound_before,
    bound_in,
    declared,
    name_uses,
    parameters,
    read_first,
)
from symdebug.fixes.rewrite_source import (
    SCOPES,
    CannotRewriteError,
    Edit,
    FunctionSource,
    blocks,
    end_of,
    start_of,
    statements,
)

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def cond_rewrite(source: FunctionSource, line: int) -> tuple[list[Edit], str]:
    """The edit that makes the ``if`` on source line ``line`` a ``torch.cond``, and its label."""
    sides = _sides(source, _branch(source, line))
    for side in (sides.true, sides.false):
        _check_side(source, side, sides.value is None)
    _check_leftovers(source, sides)
    text = cond_text(source, sides, _operands(source, sides), branch_names(source))
    end = sides.false[-1].end_lineno or sides.false[-1].lineno
    condition = " ".join(source.node_text(sides.node.test).split())
    return [Edit((sides.node.lineno, 0), (end + 1, 0), text)], f"torch.cond for `if {condition}:`"


def _branch(source: FunctionSource, line: int) -> ast.If:
    found = [
        s
        for s in statements(source.node)
        if isinstance(s, ast.If | ast.While) and s.test.lineno <= line <= (s.test.end_lineno or 0)
    ]
    if found and isinstance(found[-1], ast.If):
        return found[-1]
    where = f"line {source.file_line(line)}"
    if found:
        raise CannotRewriteError(f"{where} is a `while` loop: torch.cond cannot replace a loop")
    nodes = ast.walk(source.node)
    if any(isinstance(n, ast.IfExp) and n.lineno <= line <= (n.end_lineno or 0) for n in nodes):
        raise CannotRewriteError(
            f"the branch on {where} is a conditional expression (`a if c else b`): "
            "write it as an `if` statement to rewrite it"
        )
    raise CannotRewriteError(f"no `if` statement's condition is on {where}")


def _sides(source: FunctionSource, node: ast.If) -> Sides:
    false = node.orelse or _rest_of_block(source, node)
    if _returns(node.body) and false and _returns(false):
        return Sides(node, node.body, false, None)
    value = _assigned(node.body[-1])
    if node.orelse and value is not None and value == _assigned(node.orelse[-1]):
        return Sides(node, node.body, node.orelse, value)
    if not node.orelse:
        raise CannotRewriteError(
            "the `if` has no `else`, and its side and the code after it do not both end with "
            "`return`: torch.cond needs both sides to give the value "
            "(write the other side as an `else`)"
        )
    raise CannotRewriteError(
        "the sides neither both end with `return` nor both end by assigning one name: "
        "torch.cond needs each side to give the value"
    )


def _rest_of_block(source: FunctionSource, node: ast.If) -> list[ast.stmt]:
    block = next(b for b in blocks(source.node) if any(s is node for s in b))
    return block[[id(s) for s in block].index(id(node)) + 1 :]


def _returns(side: list[ast.stmt]) -> bool:
    """Whether the side ends by returning on every path."""
    last = side[-1]
    if isinstance(last, ast.If):
        return bool(last.orelse) and _returns(last.body) and _returns(last.orelse)
    return isinstance(last, ast.Return)


def _terminal_returns(side: list[ast.stmt]) -> set[int]:
    """The returns that end a side (those may stay: each gives the branch's value)."""
    if not side:
        return set()
    last = side[-1]
    if isinstance(last, ast.If):
        return _terminal_returns(last.body) | _terminal_returns(last.orelse)
    return {id(last)} if isinstance(last, ast.Return) else set()


def _assigned(statement: ast.stmt) -> str | None:
    """The one name a plain ``name = value`` binds."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _check_side(source: FunctionSource, side: list[ast.stmt], returning: bool) -> None:
    """Refuse what a side cannot do once it is a function of its own."""
    terminal = _terminal_returns(side) if returning else set()
    for node, in_loop in (found for s in side for found in _own(s, in_loop=False)):
        if isinstance(node, ast.Return) and id(node) not in terminal:
            raise CannotRewriteError(
                "a side returns before its end: torch.cond's branches must each give one value"
            )
        if isinstance(node, ast.Yield | ast.YieldFrom | ast.Await):
            raise CannotRewriteError("a side yields or awaits: a branch function cannot")
        if isinstance(node, ast.Global | ast.Nonlocal):
            raise CannotRewriteError("a side declares `global` or `nonlocal` names")
        if isinstance(node, ast.Break | ast.Continue) and not in_loop:
            raise CannotRewriteError(
                "a side breaks or continues the loop around the `if`: a branch function cannot"
            )
    rebound = bound_in(side) & declared(source.node)
    if rebound:
        raise CannotRewriteError(
            f"a side assigns `{sorted(rebound)[0]}`, which the function declares "
            "global or nonlocal: in a branch function it would be a new local"
        )


def _own(node: ast.AST, in_loop: bool) -> Iterator[tuple[ast.AST, bool]]:
    """The node and every node in it (not in nested scopes), each with whether a loop holds it."""
    yield node, in_loop
    if isinstance(node, SCOPES):
        return
    for name, value in ast.iter_fields(node):
        inside = in_loop or (isinstance(node, _LOOPS) and name == "body")
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                yield from _own(child, inside)


def _check_leftovers(source: FunctionSource, sides: Sides) -> None:
    """A name a side binds (besides the value) must not be read by the code after the if."""
    bound = bound_in([*sides.true, *sides.false]) - {sides.value}
    if sides.value is None or not bound:
        return  # both sides return: nothing after the if runs
    after = _reads_after(source, sides.node) & bound
    if after:
        raise CannotRewriteError(
            f"a side assigns `{sorted(after)[0]}`, which the code after the `if` reads: "
            f"only one value (`{sides.value}`) can come out of torch.cond"
        )


def _reads_after(source: FunctionSource, node: ast.If) -> set[str]:
    """Names read after the if, or anywhere in a loop around it (read on the next turn)."""
    loops = [
        s
        for s in statements(source.node)
        if isinstance(s, _LOOPS) and s.lineno < node.lineno <= (s.end_lineno or 0)
    ]
    region = start_of(loops[0]) if loops else end_of(node)
    inside = (start_of(node), end_of(node))
    uses = (u for s in source.node.body for u in name_uses(s) if not u.store)
    return {
        u.name for u in uses if u.position >= region and not inside[0] <= u.position < inside[1]
    }


def _operands(source: FunctionSource, sides: Sides) -> list[str]:
    """The locals bound before the if that a side reads first, in the order first read.

    ``self`` (or ``cls``) stays a closure: torch.cond's operands must be tensors or ints.
    """
    bound = bound_before(source.node, start_of(sides.node))
    first = parameters(source.node)[:1]
    receiver = set(first) & {"self", "cls"}
    read = dict.fromkeys([*read_first(sides.true), *read_first(sides.false)])
    return [name for name in read if name in bound and name not in receiver]

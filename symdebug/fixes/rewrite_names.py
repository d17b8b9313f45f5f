"""Which names a function's statements read and bind, in the order Python runs them.

A rewrite that moves statements into a function of their own (``torch.cond``'s branches)
must pass in the locals they read; a rewrite that inserts a statement must know its names
are bound there.  Order matters: in ``y = y + 1`` the read of ``y`` comes before the store,
though it is written after.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from symdebug.fixes.rewrite_source import SCOPES, FunctionNode, Position, start_of

_NESTED = (*SCOPES, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True)
class NameUse:
    """A read (``store`` False) or a binding (assignment, ``del``, import) of a name."""

    name: str
    store: bool
    position: Position


def name_uses(node: ast.AST) -> Iterator[NameUse]:
    """The names a node reads and binds, in the order they run (nested scopes: their reads)."""
    if isinstance(node, ast.Name):
        yield NameUse(node.id, not isinstance(node.ctx, ast.Load), start_of(node))
    elif isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr | ast.AugAssign):
        yield from _assignment(node)
    elif isinstance(node, ast.For | ast.AsyncFor):
        for part in (node.iter, node.target, *node.body, *node.orelse):
            yield from name_uses(part)
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            yield NameUse(name, True, (node.lineno, node.col_offset))
    elif isinstance(node, _NESTED):
        yield from _inner_scope(node)
    else:
        for child in ast.iter_child_nodes(node):
            yield from name_uses(child)


def _assignment(
    node: ast.Assign | ast.AnnAssign | ast.NamedExpr | ast.AugAssign,
) -> Iterator[NameUse]:
    """The value runs first, then the targets are bound (an augmented target is read first)."""
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        yield NameUse(node.target.id, False, start_of(node.target))
    if node.value is not None:
        yield from name_uses(node.value)
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        yield from name_uses(target)


def _inner_scope(node: ast.AST) -> Iterator[NameUse]:
    """A nested scope reads the outer names it does not bind; a def binds its own name."""
    inner = [use for child in ast.iter_child_nodes(node) for use in name_uses(child)]
    bound = {use.name for use in inner if use.store} | set(_arguments(node))
    yield from (use for use in inner if not use.store and use.name not in bound)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield NameUse(node.name, True, (node.lineno, node.col_offset))


def _arguments(node: ast.AST) -> list[str]:
    arguments = getattr(node, "args", None)
    if not isinstance(arguments, ast.arguments):
        return []
    listed = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    listed += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [a.arg for a in listed]


def parameters(function: FunctionNode) -> list[str]:
    """The function's parameter names, in order."""
    return _arguments(function)


def declared(function: FunctionNode) -> set[str]:
    """Names the function declares ``global`` or ``nonlocal``: not its locals."""
    found: set[str] = set()
    for node in _own_nodes(function):
        if isinstance(node, ast.Global | ast.Nonlocal):
            found.update(node.names)
    return found


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, SCOPES):
            yield from _own_nodes(child)


def bound_before(function: FunctionNode, position: Position) -> set[str]:
    """The function's locals bound before ``position``: parameters and earlier bindings."""
    uses = (use for s in function.body for use in name_uses(s))
    earlier = {use.name for use in uses if use.store and use.position < position}
    return (earlier | set(parameters(function))) - declared(function)


def read_first(nodes: Iterable[ast.AST]) -> list[str]:
    """Names whose first use in the nodes is a read, in the order first read."""
    first: dict[str, bool] = {}
    for node in nodes:
        for use in name_uses(node):
            first.setdefault(use.name, use.store)
    return [name for name, store in first.items() if not store]


def bound_in(nodes: Iterable[ast.AST]) -> set[str]:
    """Names the nodes bind (not in nested scopes, but a nested def's own name)."""
    return {use.name for node in nodes for use in name_uses(node) if use.store}


def read_in(nodes: Iterable[ast.AST]) -> set[str]:
    """Names the nodes read."""
    return {use.name for node in nodes for use in name_uses(node) if not use.store}


def every_name(function: FunctionNode) -> set[str]:
    """Every identifier the function holds: a new name must be none of them."""
    found = {function.name}
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.split(".")[0])
    return found

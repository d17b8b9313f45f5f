"""A notebook cell as a workload that a fresh replay process can receive.

``%%symdebug fix`` replays its cell.  The replay runs in a fresh process (spawn: CUDA, and a
process that ran autograd, cannot be forked safely), so the cell is sent as its source and
the values it names from the user's namespace, pickled by value (``cloudpickle``, as
:mod:`symdebug.live.workload_ref` sends any workload): the fresh process runs the cell on its
own copy of them.  Where a value does not pickle, the replay falls back to a fork proven safe,
which sees the whole namespace, and the plan says which ran.

Its ``exec``/``eval`` run only the user's own cell, as the notebook would: a
``CellWorkload`` is made by :func:`cell_workload` from the cell ``%%symdebug fix`` heads,
and reaches the replay as the parent's own pickle.  No text read from a log, a saved session
or a suite row is ever one (none of those readers builds it).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from typing import Any

#: IPython's own names in a namespace: never sent (a fresh process has no shell).
_SHELL_NAMES = frozenset({"In", "Out", "get_ipython", "exit", "quit", "_ih", "_oh", "_dh"})


@dataclass
class CellWorkload:
    """The cell's code (IPython syntax already turned into Python) and what it reads.

    Calling it runs the cell in a namespace of those values and returns the value of its
    last expression, as the cell's output would show it.
    """

    source: str
    namespace: dict[str, Any] = field(default_factory=dict)

    def __call__(self) -> Any:
        """Run the cell; its last expression's value."""
        tree = ast.parse(self.source)
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            tree.body.pop()
        else:
            last = None
        namespace = dict(self.namespace)
        exec(compile(tree, "<symdebug fix cell>", "exec"), namespace)  # noqa: S102 - the user's cell
        if last is None:
            return None
        expression = compile(ast.Expression(last.value), "<symdebug fix cell>", "eval")
        return eval(expression, namespace)  # noqa: S307 - the user's own cell


def _mentioned(tree: ast.Module) -> set[str]:
    """Every name the cell's code mentions."""
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def _bound_at_top(tree: ast.Module) -> set[str]:
    """Names the cell binds at its top level (imports, definitions, plain assignments).

    The cell makes them itself, so they are not sent (a compiled function may not pickle).
    """
    bound: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).split(".")[0] for a in statement.names}
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(statement.name)
        elif isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            bound |= {t.id for t in targets if isinstance(t, ast.Name)}
    return bound


def cell_workload(shell: Any, cell: str) -> CellWorkload:
    """The cell as a workload: its Python source and the user's values it names."""
    source = shell.transform_cell(cell)
    tree = ast.parse(source)
    names = _mentioned(tree) - _bound_at_top(tree) - _SHELL_NAMES - set(dir(builtins))
    user_ns = shell.user_ns
    return CellWorkload(source, {name: user_ns[name] for name in sorted(names) if name in user_ns})

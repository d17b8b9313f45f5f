"""Check symdebug's own imports: no import cycle, few imports hidden in functions (issue 34).

Run by ``make lint``; exits 1 and names the offenders.

1. **No cycle** among symdebug's modules.  An edge is any import of a symdebug module, at
   module level, inside a function, or under ``if TYPE_CHECKING:`` (such an import never
   runs, but two modules that name each other's types are still one module split in two:
   a protocol of what one reads of the other ends the loop).
   ``from symdebug.pkg import name`` imports the module ``symdebug.pkg.name`` when there
   is one, else ``symdebug.pkg`` (its ``__init__``).
   Importing ``symdebug.a.b`` runs ``symdebug/a/__init__.py`` first, so it is an edge to
   every package on the way too, except the packages that enclose the importer: Python
   ran their ``__init__`` before the importer itself, so that implicit edge closes no loop.
   An import *named* after an enclosing package (``from symdebug.model import X`` inside
   ``symdebug.model.types``) is an edge like any other: it needs that ``__init__`` to have
   defined ``X`` already.
2. **Few hidden imports**: at most :data:`MAX_LAZY` imports of symdebug modules inside
   functions in the whole package, each with its reason in a ``# lazy: <reason>`` comment
   on the import's line or the line above (an import that is hard to see needs a reason
   that is easy to see).

``importlib.import_module(...)`` is an import too, for both checks, when what it imports can
be read: a string, or a module-level table of strings it picks from (``TABLE[name]``,
``TABLE.get(name)``): an edge to each symdebug module the table names.  One whose module is
computed as it runs (``symdebug/_torch`` imports torch's config modules by name) is neither.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "symdebug"
#: The budget of imports hidden in functions, for the whole package.
MAX_LAZY = 12
LAZY_MARK = "# lazy:"


@dataclass(frozen=True)
class Edge:
    """One import that runs: ``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int


@dataclass(frozen=True)
class LazyImport:
    """An import of a package module inside a function, and the reason it gives."""

    module: str
    path: Path
    line: int
    reason: str


def module_files(package_dir: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _absolute(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The module an ``ImportFrom`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    # `from . import x` in a package's __init__ is relative to the package itself.
    drop = node.level - 1 if _is_package(path) else node.level
    base = base[: len(base) - drop]
    return ".".join([*base, node.module] if node.module else base)


#: An import statement, or a call of ``importlib.import_module``.
ImportNode = ast.Import | ast.ImportFrom | ast.Call
#: A module's top-level names bound to literals (strings, tables of them), by name.
Literals = dict[str, ast.expr]


def _is_dynamic_import(node: ast.AST) -> TypeGuard[ast.Call]:
    """``importlib.import_module(...)`` or ``import_module(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id == "import_module"
    )


def _module_literals(tree: ast.Module) -> Literals:
    """The module-level names a dynamic import may pick its module from."""
    literals: Literals = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            literals[target.id] = value
    return literals


def _dynamic_targets(call: ast.Call, literals: Literals, known: set[str]) -> list[str]:
    """The package modules a dynamic import may import: its string, or its table's."""
    if not call.args:
        return []
    argument = call.args[0]
    if isinstance(argument, ast.Subscript):
        argument = argument.value  # TABLE[name]
    elif isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute):
        argument = argument.func.value  # TABLE.get(name)
    if isinstance(argument, ast.Name):
        argument = literals.get(argument.id, argument)
    strings = [n.value for n in ast.walk(argument) if isinstance(n, ast.Constant)]
    return sorted({text for text in strings if isinstance(text, str) and text in known})


def _imported(
    node: ImportNode, module: str, path: Path, known: set[str], literals: Literals
) -> list[str]:
    """The package modules one import names (not yet their parent packages)."""
    if isinstance(node, ast.Call):
        return _dynamic_targets(node, literals, known)
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    source = _absolute(node, module, path)
    if source not in known:
        return []
    targets = []
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        targets.append(submodule if submodule in known else source)
    return targets


def _with_parents(target: str, importer: str, known: set[str]) -> list[str]:
    """``target`` and the packages Python initialises on the way to it.

    The packages enclosing ``importer`` are left out: they were initialised before it ran.
    """
    parts = target.split(".")
    parents = [".".join(parts[:n]) for n in range(1, len(parts))]
    enclosing = {".".join(importer.split(".")[:n]) for n in range(1, importer.count(".") + 2)}
    return [p for p in parents if p in known and p not in enclosing] + [target]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(
    nodes: Iterable[ast.AST], *, types: bool, in_function: bool = False
) -> Iterator[tuple[ImportNode, bool]]:
    """Each import that runs (and with ``types``, each for type checkers only), and whether
    it sits inside a function."""
    for node in nodes:
        if isinstance(node, ast.If) and _is_type_checking(node) and not types:
            yield from _imports(node.orelse, types=types, in_function=in_function)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)) or _is_dynamic_import(node):
            yield node, in_function
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        yield from _imports(ast.iter_child_nodes(node), types=types, in_function=inner)


def _lazy_reason(lines: list[str], line: int) -> str:
    """The ``# lazy:`` reason on the import's line or the line above, or ``""``."""
    for text in (lines[line - 1], lines[line - 2] if line >= 2 else ""):
        _, mark, reason = text.partition(LAZY_MARK)
        if mark and reason.strip():
            return reason.strip()
    return ""


def scan(package_dir: Path, *, types: bool = True) -> tuple[list[Edge], list[LazyImport]]:
    """Every import edge among the package's modules, and the imports hidden in functions.

    With ``types`` false, the imports under ``if TYPE_CHECKING:`` are left out.
    """
    modules = module_files(package_dir)
    known = set(modules)
    edges: list[Edge] = []
    lazy: list[LazyImport] = []
    for module, path in modules.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, str(path))
        literals = _module_literals(tree)
        for node, in_function in _imports(tree.body, types=types):
            targets = _imported(node, module, path, known, literals)
            for target in targets:
                edges.extend(
                    Edge(module, step, node.lineno) for step in _with_parents(target, module, known)
                )
            if targets and in_function:
                lazy.append(LazyImport(module, path, node.lineno, _lazy_reason(lines, node.lineno)))
    return edges, lazy


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module, or of one that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def _shortest_loop(graph: dict[str, set[str]], start: str, members: set[str]) -> list[str]:
    """The shortest import loop from ``start`` back to it inside one component."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph.get(node, set()) & members):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    return [start]


@dataclass(frozen=True)
class Cycle:
    """A group of modules that all import each other, and one loop through it."""

    loop: list[str]  # a, b, a
    group: list[str]  # every module of the group, the loop's and others'


def import_cycles(package_dir: Path) -> list[Cycle]:
    """Each import cycle, one per group of modules that all reach each other.

    A group is shown by its shortest loop through its first module: breaking that loop
    shows the next one, if the group holds more.
    """
    edges, _ = scan(package_dir)
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
    return [
        Cycle(_shortest_loop(graph, group[0], set(group)), group)
        for group in _strongly_connected(graph)
    ]


def lazy_import_problems(package_dir: Path, budget: int = MAX_LAZY) -> list[str]:
    """What is wrong with the imports hidden in functions: too many, or one without reason."""
    _, lazy = scan(package_dir, types=False)
    problems = [
        f"{item.path.relative_to(package_dir.parent)}:{item.line}: import inside a function "
        f"without a '{LAZY_MARK} <reason>' comment on its line or the line above"
        for item in lazy
        if not item.reason
    ]
    if len(lazy) > budget:
        per_file = Counter(str(item.path.relative_to(package_dir.parent)) for item in lazy)
        where = ", ".join(f"{name} {count}" for name, count in per_file.most_common())
        problems.append(
            f"{len(lazy)} imports of symdebug modules inside functions, over the budget of "
            f"{budget} (--list names them): {where}"
        )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?", type=Path, default=ROOT / PACKAGE)
    parser.add_argument("--list", action="store_true", help="list the imports in functions")
    args = parser.parse_args(argv)
    failed = False
    for cycle in import_cycles(args.package):
        print("import cycle: " + " -> ".join(cycle.loop))
        others = sorted(set(cycle.group) - set(cycle.loop))
        if others:
            print("  in a group of modules that all import each other, with " + ", ".join(others))
        failed = True
    for problem in lazy_import_problems(args.package):
        print(problem)
        failed = True
    if args.list:
        for item in scan(args.package, types=False)[1]:
            print(f"{item.path.relative_to(args.package.parent)}:{item.line}: {item.reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

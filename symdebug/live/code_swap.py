"""A rewritten function swapped in for a replay: found alive, compiled, its code replaced.

A replay runs the user's own workload, which calls the user's own function objects; so a
rewrite replaces the code of the live function (``fn.__code__ = new``), not the file.  The
new code must take the function's existing closure: it is compiled nested in a stand-in
of its enclosing scopes, which binds the same free variable names (and, for ``super()``,
the class).  No torch here: only code objects.
"""

from __future__ import annotations

import ast
import dis
import inspect
import types
from collections.abc import Iterator
from contextlib import contextmanager

from symdebug.live.heap import every_object

_OUTER = "__symdebug_scope__"


def function_at(filename: str, lineno: int) -> types.FunctionType | None:
    """The innermost live function of ``filename`` whose lines hold ``lineno``.

    Parameters
    ----------
    filename
        The ``co_filename`` of its code (a path, or a notebook cell's name).
    lineno
        A line of the file.

    Returns
    -------
    types.FunctionType or None
        A function whose own code runs the line wins over one that holds it only in a
        nested function (or a decorator line it runs); among those, the innermost.
    """
    best: tuple[tuple[bool, int, int], types.FunctionType] | None = None
    for candidate in every_object():
        if type(candidate) is not types.FunctionType:  # isinstance would run lazy modules' hooks
            continue
        code = candidate.__code__
        if code.co_filename != filename:
            continue
        lines = _lines(code)
        if not lines or not code.co_firstlineno <= lineno <= max(lines):
            continue
        rank = (lineno in lines, code.co_firstlineno, -max(lines))
        if best is None or rank > best[0]:
            best = (rank, candidate)
    return best[1] if best is not None else None


def _lines(code: types.CodeType) -> set[int]:
    """Every line an instruction of the code (not of its nested code) spans."""
    lines = {code.co_firstlineno}
    for start, end, _, _ in code.co_positions():
        if start is not None:
            lines.update(range(start, (end or start) + 1))
    return lines


def function_source(fn: types.FunctionType) -> tuple[str, int] | None:
    """The function's source as in its file (or notebook cell), and its first line.

    The code object is read, not the function: ``inspect`` would follow ``__wrapped__``
    to another function's source.
    """
    try:
        lines, first = inspect.getsourcelines(fn.__code__)
    except (OSError, TypeError):
        return None
    return "".join(lines), first


def rewritten_code(fn: types.FunctionType, after: str, firstlineno: int) -> types.CodeType:
    """The code of ``after`` (the function rewritten), ready for ``fn.__code__``.

    Parameters
    ----------
    fn
        The live function.
    after
        Its rewritten source (indented as in the file, decorators kept or not).
    firstlineno
        The file's line of ``after``'s first line.

    Returns
    -------
    types.CodeType
        Compiled with the function's file name and the file's line numbers, with the same
        free variables as ``fn``'s code (so its closure fits) and the same qualified name.

    Raises
    ------
    ValueError
        When ``after`` defines no function ``fn.__name__`` or reads a closure variable the
        original does not.
    SyntaxError
        When ``after`` does not compile.
    """
    node = _definition(_parsed(after, firstlineno), fn.__name__)
    freevars = fn.__code__.co_freevars
    _undecorated(node)
    _keep_free(node, freevars)
    module = ast.fix_missing_locations(ast.Module([_scope(node, fn)], []))
    outer = compile(module, fn.__code__.co_filename, "exec")
    code = _found(outer, fn.__name__)
    if code.co_freevars != freevars:
        raise ValueError(
            f"the rewrite of {fn.__qualname__} has free variables {code.co_freevars}, "
            f"the function {freevars}: it reads a closure name the original does not"
        )
    _check_globals(code, fn)
    return _renamed(code, code.co_qualname, fn.__code__.co_qualname)


def _parsed(after: str, firstlineno: int) -> list[ast.stmt]:
    """The statements of ``after`` with the file's lines and columns.

    An indented source is parsed under ``if True:`` rather than dedented: a multi-line
    string whose text starts at column 0 would stop ``dedent``.
    """
    indented = after[:1].isspace()
    tree = ast.parse(f"if True:\n{after}" if indented else after)
    ast.increment_lineno(tree, firstlineno - (2 if indented else 1))
    first = tree.body[0] if tree.body else None
    return first.body if indented and isinstance(first, ast.If) else tree.body


def _check_globals(code: types.CodeType, fn: types.FunctionType) -> None:
    """A global the rewrite reads (``torch``) must be one the function's module has."""
    known = set(fn.__globals__) | set(_builtins(fn)) | _globals_read(fn.__code__)
    missing = sorted(_globals_read(code) - known)
    if missing:
        raise ValueError(
            f"the rewrite of {fn.__qualname__} reads {', '.join(missing)}, which its module "
            "does not define (an import is missing there)"
        )


def _builtins(fn: types.FunctionType) -> dict[str, object]:
    found = getattr(fn, "__builtins__", None) or fn.__globals__.get("__builtins__", {})
    return found if isinstance(found, dict) else vars(found)


def _globals_read(code: types.CodeType) -> set[str]:
    names = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _globals_read(const)
    return names


def _definition(body: list[ast.stmt], name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return node
    raise ValueError(f"the rewrite defines no function {name}")


def _undecorated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Decorators dropped (the function object exists), its first line kept for the code."""
    if node.decorator_list:
        node.lineno = min(d.lineno for d in node.decorator_list)
        node.decorator_list = []


def _keep_free(node: ast.FunctionDef | ast.AsyncFunctionDef, freevars: tuple[str, ...]) -> None:
    """A closure name the rewrite no longer reads (a removed print's) stays free.

    ``if False: name`` emits no instruction, but the name still counts as free.
    """
    if not freevars or _class_only(freevars):
        return
    names: list[ast.expr] = [ast.Name(n, ast.Load()) for n in freevars if n != "__class__"]
    kept = ast.If(ast.Constant(value=False), [ast.Expr(ast.Tuple(names, ast.Load()))], [])
    node.body.append(ast.copy_location(kept, node.body[-1]))


def _class_only(freevars: tuple[str, ...]) -> bool:
    return freevars == ("__class__",)


def _scope(node: ast.stmt, fn: types.FunctionType) -> ast.stmt:
    """The function in a stand-in of its scopes: a function binding each free name.

    A method also sits in a class of its class's name: ``super()`` needs ``__class__``,
    and ``self.__x`` is mangled with the class's name.
    """
    freevars = fn.__code__.co_freevars
    owner = _owner(fn)
    inner: ast.stmt = node
    if owner is not None or "__class__" in freevars:
        inner = ast.ClassDef(owner or "_Owner", [], [], [node], [])
    binds = [
        ast.Assign([ast.Name(name, ast.Store())], ast.Constant(None))
        for name in freevars
        if name != "__class__"
    ]
    return ast.FunctionDef(
        _OUTER, ast.arguments([], [], None, [], [], None, []), [*binds, inner], []
    )


def _owner(fn: types.FunctionType) -> str | None:
    """The class a method is defined in (its name mangles ``__x``), from the qualified name."""
    parts = fn.__qualname__.split(".")
    owner = parts[-2] if len(parts) > 1 else None
    return owner if owner is not None and owner.isidentifier() else None


def _found(code: types.CodeType, name: str) -> types.CodeType:
    """The code object named ``name`` nested in ``code`` (breadth first)."""
    queue = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    while queue:
        current = queue.pop(0)
        if current.co_name == name and current.co_qualname.startswith(_OUTER):
            return current
        queue += [c for c in current.co_consts if isinstance(c, types.CodeType)]
    raise ValueError(f"the rewrite compiled no function {name}")


def _renamed(code: types.CodeType, old: str, new: str) -> types.CodeType:
    """The code and its nested code with qualified names under ``new``, not the stand-in's."""
    consts = tuple(
        _renamed(c, old, new) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    qualname = new + code.co_qualname[len(old) :]
    return code.replace(co_consts=consts, co_qualname=qualname)


@contextmanager
def code_swapped(fn: types.FunctionType, code: types.CodeType) -> Iterator[None]:
    """``fn`` runs ``code`` for the block; its own code is back after, even on an error."""
    original = fn.__code__
    fn.__code__ = code
    try:
        yield
    finally:
        fn.__code__ = original

"""Python that a fix can show: guards and sources in the user's names, read with ``ast``.

A fix's ``code`` must parse and must read as the user's own program: sympy's printing
(``Eq(Mod(s27, 2), 0)``) becomes Python (``x.shape[1] % 2 == 0``), Dynamo's source names
(``L['x'].size()[1]``) become what the user wrote (``x.shape[1]``), and a name a user
cannot write (``L['___stack0']``, an intermediate at a graph break) gives no code at all.
Every function here returns None rather than guess.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from functools import lru_cache

from symdebug.model.values import Source

#: sympy relations (as ``str(expr)`` prints them) and their Python operators.
_RELATIONS: dict[str, ast.cmpop] = {
    "Eq": ast.Eq(),
    "Ne": ast.NotEq(),
    "Lt": ast.Lt(),
    "Le": ast.LtE(),
    "Gt": ast.Gt(),
    "Ge": ast.GtE(),
    "StrictLessThan": ast.Lt(),
    "LessThan": ast.LtE(),
    "StrictGreaterThan": ast.Gt(),
    "GreaterThan": ast.GtE(),
}
#: sympy (and torch's sympy functions) that are a Python binary operator on ints.
_BINARY: dict[str, ast.operator] = {
    "Mod": ast.Mod(),
    "PythonMod": ast.Mod(),
    "FloorDiv": ast.FloorDiv(),
    "CleanDiv": ast.FloorDiv(),
    "IntTrueDiv": ast.Div(),
    "Pow": ast.Pow(),
}
#: sympy functions that are a Python builtin of the same meaning.
_BUILTINS = {"Max": "max", "Min": "min", "Abs": "abs"}
_BOOLEAN: dict[str, ast.boolop] = {"And": ast.And(), "Or": ast.Or()}
#: ``._modules['name']`` and its kin: how Dynamo reaches a submodule, not how users write it.
_CONTAINER = re.compile(r"\._(?:modules|parameters|buffers)\[['\"]([^'\"]+)['\"]\]")


def module_attribute(source: str) -> bool:
    """Whether an int attribute is a module's (``self.k``, ``self.block.k``).

    Dynamo keeps an nn.Module's int attribute a constant unless
    ``allow_unspec_int_on_nn_module`` is set; any other object's (a dataclass field, a
    closure cell) becomes dynamic after it first changes, as an int argument does.
    """
    return source.startswith("L['self']") or _CONTAINER.search(source) is not None


class _NotPythonError(ValueError):
    """The expression holds something with no plain Python spelling."""


def user_name(source: str) -> str | None:
    """How the user's code names an input (``x``, ``self.layers[0].w``), or None.

    Parameters
    ----------
    source
        A Dynamo source (``L['x']``, ``L['self']._modules['layers']._modules['0'].w``).

    Returns
    -------
    str or None
        A Python expression without the local scope, with submodules as attributes and
        list items; None when it names something a user cannot write: Dynamo's own
        variables (``___stack0``), globals, dunder internals (``__closure__``).
    """
    return _user_name(str(source))


@lru_cache(maxsize=16384)
def _user_name(source: str) -> str | None:
    return _parsed(_CONTAINER.sub(_container_item, Source(source).stripped))


def _container_item(match: re.Match[str]) -> str:
    name = match[1]
    return f"[{name}]" if name.isdigit() else f".{name}" if name.isidentifier() else match[0]


def _parsed(text: str) -> str | None:
    """``text`` when it is one Python expression without a dunder or internal name."""
    if "___" in text or ".__" in text or text.startswith(("G[", "L[")) or "L['" in text:
        return None
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    return text


@lru_cache(maxsize=65536)
def size_expression(source: str) -> str | None:
    """A size or int input as user code reads it: ``x.shape[1]``, ``self.k``; or None."""
    parsed = Source(source)
    if parsed.tensor is None:
        return user_name(parsed)
    tensor = user_name(parsed.tensor)
    return f"{tensor}.shape[{parsed.dim}]" if tensor is not None else None


def python_expression(expr: str, names: dict[str, str]) -> str | None:
    """A sympy guard as Python in the user's names, or None when it has no such form.

    Parameters
    ----------
    expr
        The guard as torch prints it (``Eq(Mod(s27, 2), 0)``, ``s77 < 64``).
    names
        Each symbol's Python expression (``{"s27": "x.shape[1]"}``).

    Returns
    -------
    str or None
        ``x.shape[1] % 2 == 0``; None for a symbol without a name (unbacked ``u0``) or a
        function Python does not have.
    """
    return _python_expression(expr, tuple(sorted(names.items())))


@lru_cache(maxsize=16384)
def _python_expression(expr: str, names: tuple[tuple[str, str], ...]) -> str | None:
    try:
        tree = ast.parse(expr, mode="eval")
        named = {symbol: ast.parse(text, mode="eval").body for symbol, text in names}
        return ast.unparse(_to_python(tree.body, named))
    except (SyntaxError, _NotPythonError):
        return None


def _to_python(node: ast.expr, names: dict[str, ast.expr]) -> ast.expr:
    """The node with sympy calls made operators and symbols made the user's expressions."""
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise _NotPythonError(node.id)
        return names[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        args = [_to_python(arg, names) for arg in node.args]
        return _call(node.func.id, args)
    if isinstance(node, ast.Constant | ast.BinOp | ast.UnaryOp | ast.Compare | ast.BoolOp):
        return _children(node, names)
    raise _NotPythonError(ast.dump(node))


def _children(node: ast.expr, names: dict[str, ast.expr]) -> ast.expr:
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.expr):
            setattr(node, field, _to_python(value, names))
        elif isinstance(value, list):
            items = [_to_python(v, names) if isinstance(v, ast.expr) else v for v in value]
            setattr(node, field, items)
    return node


def _call(name: str, args: list[ast.expr]) -> ast.expr:
    if name in _RELATIONS and len(args) == 2:
        return ast.Compare(args[0], [_RELATIONS[name]], [args[1]])
    if name in _BINARY and len(args) == 2:
        return ast.BinOp(args[0], _BINARY[name], args[1])
    if name in _BOOLEAN and len(args) >= 2:
        return ast.BoolOp(_BOOLEAN[name], args)
    if name == "Not" and len(args) == 1:
        return ast.UnaryOp(ast.Not(), args[0])
    if name in _BUILTINS:
        return ast.Call(ast.Name(_BUILTINS[name]), args, [])
    raise _NotPythonError(name)


# ---------------------------------------------------------------- the user's line


def without_comment(line: str) -> str:
    """A source line without its trailing ``# comment`` (unchanged if it does not tokenize)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, SyntaxError):
        return line
    comment = next((t for t in tokens if t.type == tokenize.COMMENT), None)
    return line[: comment.start[1]].rstrip() if comment is not None else line


def _statement(line: str) -> ast.Module | None:
    """One source line as a module: a compound header gets a body so that it parses."""
    text = without_comment(line.strip()).strip()
    if text.startswith("elif "):
        text = text[2:]
    if text.endswith(":"):
        text += " pass"
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def branch_condition(line: str) -> str | None:
    """The condition a user line branches on (``if``, ``elif``, ``while``, ``a if c else b``).

    Parameters
    ----------
    line
        The source text of the user frame (``if x.shape[0] < 64:``).

    Returns
    -------
    str or None
        The condition as the user wrote it (``x.shape[0] < 64``), or None when the line is
        no branch (or does not parse alone, like the first line of a multi-line ``if``).
    """
    return _branch_condition(line)


@lru_cache(maxsize=4096)
def _branch_condition(line: str) -> str | None:
    tree = _statement(line)
    if tree is None:
        return None
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.If | ast.While):
        return ast.unparse(first.test)
    ternary = next((n for n in ast.walk(tree) if isinstance(n, ast.IfExp)), None)
    return ast.unparse(ternary.test) if ternary is not None else None


@dataclass(frozen=True, slots=True)
class IndexUse:
    """An index computed from a size, in a subscript of the user's line (``h[:, T - 1]``).

    Attributes
    ----------
    tensor
        What is indexed (``h``).
    dim
        The dimension the index selects.
    index
        The index as written (``T - 1``).
    from_end
        ``k`` when the index is ``<expression> - k`` (the k-th element from the end).
    negative
        The subscript rewritten with ``-k`` (``h[:, -1]``), when ``from_end`` is set.
    """

    tensor: str
    dim: int
    index: str
    from_end: int | None
    negative: str | None


def computed_index(line: str) -> IndexUse | None:
    """The first subscript of ``line`` whose index is computed (``h[:, T - 1]``), or None.

    Parameters
    ----------
    line
        The source text of the user frame.

    Returns
    -------
    IndexUse or None
        None when no subscript indexes one dimension by an expression of names (slices,
        constants, ``...`` and ``None`` before it make the dimension unknown, so no).
    """
    return _computed_index(line)


@lru_cache(maxsize=4096)
def _computed_index(line: str) -> IndexUse | None:
    tree = _statement(line)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            use = _index_use(node)
            if use is not None:
                return use
    return None


def _index_use(node: ast.Subscript) -> IndexUse | None:
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for dim, item in enumerate(items):
        if not isinstance(item, ast.Slice):
            if not _computed(item):
                return None
            return _described(node, items, dim, item)
    return None


def _computed(item: ast.expr) -> bool:
    """An index made from names (a size, a length), not a constant, a tensor mask or ``...``."""
    if isinstance(item, ast.Constant | ast.Starred | ast.Name | ast.List | ast.Tuple):
        return False
    return any(isinstance(n, ast.Name) for n in ast.walk(item))


def _described(node: ast.Subscript, items: list[ast.expr], dim: int, item: ast.expr) -> IndexUse:
    from_end = None
    if (
        isinstance(item, ast.BinOp)
        and isinstance(item.op, ast.Sub)
        and isinstance(item.right, ast.Constant)
        and isinstance(item.right.value, int)
        and item.right.value > 0
    ):
        from_end = item.right.value
    negative = _with_item(node, items, dim, ast.Constant(-from_end)) if from_end else None
    return IndexUse(ast.unparse(node.value), dim, ast.unparse(item), from_end, negative)


def _with_item(node: ast.Subscript, items: list[ast.expr], dim: int, new: ast.expr) -> str:
    changed = [new if i == dim else item for i, item in enumerate(items)]
    index: ast.expr = ast.Tuple(changed) if len(items) > 1 else changed[0]
    return ast.unparse(ast.Subscript(node.value, index))


def divisor(expr: str) -> int | None:
    """The ``k`` of a divisibility guard (``Eq(Mod(s27, 2), 0)``, ``Eq(s27, 4*((s27//4)))``)."""
    if not expr.startswith(("Eq(", "Ne(")):
        return None
    found = re.search(r"Mod\([^()]*?, (\d+)\)", expr) or re.search(r"//(\d+)\)", expr)
    return int(found[1]) if found and int(found[1]) > 1 else None


#: A divisibility of one size: ``Eq(Mod(s27, 4), 0)``, ``Eq(s27, 4*((s27//4)))`` (or ``Ne``).
_DIVISIBLE = (
    re.compile(r"(?:Eq|Ne)\(Mod\((?P<symbol>[su]\d+), (?P<k>\d+)\), 0\)"),
    re.compile(r"(?:Eq|Ne)\((?P<symbol>[su]\d+), (?P<k>\d+)\*\(+(?P=symbol)//(?P=k)\)+\)"),
)


def divided_symbol(expr: str) -> str | None:
    """The size a guard asks to be a multiple of a number, when it asks that of one size.

    ``s27`` for ``Eq(Mod(s27, 2), 0)``; None for ``Eq(s27*s77, 4*(((s27*s77)//4)))``, which
    asks the product (a ``numel``) to be a multiple, and for ``Ne(8*((s77//8)), 0)``, which
    asks ``s77 >= 8``.
    """
    found = (pattern.fullmatch(expr) for pattern in _DIVISIBLE)
    return next((m["symbol"] for m in found if m is not None), None)


def pins_a_size(expr: str) -> bool:
    """Whether a guard sets a size to one value (``Eq(s12 - 1, 11)``), not a relation."""
    match = re.fullmatch(r"Eq\((.+), (-?\d+)\)", expr)
    return match is not None and "Mod(" not in match[1] and "//" not in match[1]


def parses(code: str) -> bool:
    """Whether ``code`` is Python (what every fix's code must be)."""
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


#: What a fix's code never holds outside a string: sympy's printing and Dynamo's scopes.
FORBIDDEN_IN_CODE: tuple[str, ...] = ("Eq(", "Ne(", "Mod(", "L[", "G[")


def is_user_code(code: str) -> bool:
    """Whether ``code`` parses, in the user's names: no sympy, no Dynamo scope, no ``___``.

    A setting's value may name an input as Dynamo does (``dynamic_sources = "L['n']"``:
    that is how the setting matches it), so the text of strings is not checked for scopes;
    Dynamo's internal names (``___stack0``) are refused everywhere.
    """
    if "___" in code or not parses(code):
        return False
    without_strings = ast.unparse(_StringsBlanked().visit(ast.parse(code)))
    return not any(text in without_strings for text in FORBIDDEN_IN_CODE)


class _StringsBlanked(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant("") if isinstance(node.value, str) else node

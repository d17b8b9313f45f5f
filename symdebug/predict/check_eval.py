"""Evaluate Dynamo's shape checks (Python code, as the guard tree prints them) on many sizes.

Dynamo installs ShapeEnv guards as Python expressions over sources
(``(L['x'].size()[0] % 2) == 0``, ``math.ceil(L['x'].size()[0] / 3) > 2``).  We compile each
expression once, with every source replaced by a column of candidate values, and evaluate
it on numpy arrays: one call answers thousands of sizes.  Python's ``//`` and ``%`` on ints
floor exactly like numpy's on int64, so the results are the ones Dynamo computes.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import Any

import numpy as np

from symdebug.predict.guard_grammar import guard_expression

Values = Mapping[str, Any]
Evaluator = Callable[[Values], Any]


def _int_of(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: np.asarray(fn(value)).astype(np.int64)


def _fold(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def folded(*args: Any) -> Any:
        result = args[0]
        for arg in args[1:]:
            result = fn(result, arg)
        return result

    return folded


class _Namespace:
    """Stand-ins for what the printed checks call, working on arrays and on scalars."""

    ceil = staticmethod(_int_of(np.ceil))
    floor = staticmethod(_int_of(np.floor))
    trunc = staticmethod(_int_of(np.trunc))
    sqrt = staticmethod(np.sqrt)
    sym_float = staticmethod(lambda value: np.asarray(value, dtype=np.float64))
    sym_int = staticmethod(_int_of(np.trunc))
    sym_max = staticmethod(_fold(np.maximum))
    sym_min = staticmethod(_fold(np.minimum))
    sym_sqrt = staticmethod(np.sqrt)
    inf = math.inf
    # A float input made dynamic is checked ``not math.isnan(L['scale'])``.
    isnan = staticmethod(np.isnan)
    isinf = staticmethod(np.isinf)
    isfinite = staticmethod(np.isfinite)


GLOBALS: dict[str, Any] = {
    "math": _Namespace,
    "torch": _Namespace,
    "max": _fold(np.maximum),
    "min": _fold(np.minimum),
    "abs": np.abs,
    "int": _int_of(np.trunc),
    "float": _Namespace.sym_float,
    "round": _int_of(np.round),
    "__builtins__": {},
}
SOURCE_ROOTS = ("L[", "G[")


class _ScalarNamespace:
    """What the printed checks call, on one call's Python ints (exact, as Dynamo's own)."""

    ceil = staticmethod(math.ceil)
    floor = staticmethod(math.floor)
    trunc = staticmethod(math.trunc)
    sqrt = staticmethod(math.sqrt)
    sym_float = float
    sym_int = staticmethod(math.trunc)
    sym_max = staticmethod(max)
    sym_min = staticmethod(min)
    sym_sqrt = staticmethod(math.sqrt)
    inf = math.inf
    isnan = staticmethod(math.isnan)
    isinf = staticmethod(math.isinf)
    isfinite = staticmethod(math.isfinite)


SCALAR_GLOBALS: dict[str, Any] = {
    "_type": type,
    "_int_type": int,
    "math": _ScalarNamespace,
    "torch": _ScalarNamespace,
    "max": max,
    "min": min,
    "abs": abs,
    "int": math.trunc,
    "float": float,
    "round": round,
    "__builtins__": {},
}


class _Sources(ast.NodeTransformer):
    """Sources -> ``V["<source>"]`` (``len(<source>)`` -> ``V["len:<source>"]``)."""

    def __init__(self) -> None:
        self.sources: list[str] = []

    def _source(self, node: ast.expr) -> ast.expr:
        text = ast.unparse(node)
        if text.startswith(SOURCE_ROOTS):
            return self._named(text)
        return self.generic_visit(node)  # type: ignore[return-value]

    visit_Subscript = visit_Attribute = _source  # noqa: N815 - ast visitor names

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "len" and len(node.args) == 1:
            inner = ast.unparse(node.args[0])
            if inner.startswith(SOURCE_ROOTS):  # container length: a value of its own
                return self._named(f"len:{inner}")
        return self._source(node)

    def _named(self, key: str) -> ast.expr:
        self.sources.append(key)
        return _read(key)


class _Vectorize(_Sources):
    """As :class:`_Sources`; ``and``/``or``/``not`` and chained compares -> ``&|~``."""

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        left, parts = node.left, list[ast.expr]()
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts.append(ast.Compare(left, [op], [right]))
            left = right
        return _join(list(parts), ast.BitAnd())

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        values = [self.visit(value) for value in node.values]
        return _join(values, ast.BitAnd() if isinstance(node.op, ast.And) else ast.BitOr())

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.op, ast.Pow):  # ``2 ** s0`` leaves int64 at s0 = 63
            return ast.Call(ast.Name("_pow", ast.Load()), [node.left, node.right], [])
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        operand = self.visit(node.operand)
        if isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Invert(), ast.Call(ast.Name("_bool", ast.Load()), [operand], []))
        return ast.UnaryOp(node.op, operand)


def _join(parts: list[ast.expr], op: ast.operator) -> ast.expr:
    result = parts[0]
    for part in parts[1:]:
        result = ast.BinOp(result, op, part)
    return result


def exact_power(base: Any, exponent: Any) -> Any:
    """``base ** exponent`` as Python computes it, on columns of ints too.

    numpy's int64 wraps around past 2**63 (and refuses negative exponents): where either
    could happen, the column is computed in Python's own ints.
    """
    base, exponent = np.asarray(base), np.asarray(exponent)
    if base.dtype.kind not in "iu" or exponent.dtype.kind not in "iu":
        return np.power(base, exponent)
    with np.errstate(all="ignore"):
        size = np.abs(base.astype(np.float64)) ** exponent.astype(np.float64)
    if np.any(exponent < 0) or np.any(size >= _EXACT_BELOW):
        return np.power(base.astype(object), exponent.astype(object))
    return np.power(base, exponent)


#: Powers below this are exact in int64 (with room for the float estimate's rounding).
_EXACT_BELOW = 2.0**62


def compile_check(code: str) -> tuple[Evaluator, list[str]]:
    """A function of ``{source: value or array}`` -> bool (array), and the sources it reads."""
    tree = guard_expression(code)  # someone else's file: only the guard grammar is compiled
    transformer = _Vectorize()
    body = ast.fix_missing_locations(transformer.visit(tree))
    compiled = compile(body, "<symdebug check>", "eval")
    namespace = dict(GLOBALS, _bool=lambda value: np.asarray(value, dtype=bool), _pow=exact_power)

    def evaluate(values: Values) -> Any:
        # Over a range of sizes a divisor can be 0 where torch's earlier checks (Ne(s//4, 0))
        # already failed; numpy's warning about it would only be noise.
        with np.errstate(divide="ignore", invalid="ignore"):
            return eval(compiled, namespace, {"V": values})  # noqa: S307 - our own compiled AST

    return evaluate, list(dict.fromkeys(transformer.sources))


#: A check's expression built from one expression per constant: the constants themselves,
#: or where a template reads them (``_K[0]``).
Build = Callable[[Sequence[ast.expr]], ast.expr]


@dataclass(eq=False, slots=True)
class ScalarCheck:
    """A check on one call's Python values (``V["<source>"] ...``), as template and constants.

    The entries of a frame recompiled for each value of an int differ in constants only
    (``V["L['n']"] == 3``, ``== 4`` ...): checks of one ``key`` share one template, compiled
    once, that reads the constants from ``_K``.  :mod:`symdebug.predict.check_program`
    inlines the templates of an entry's checks into one function.
    """

    key: Hashable
    constants: tuple[Any, ...]
    build: Build

    @property
    def expression(self) -> ast.expr:
        """The expression, its constants in place."""
        return self.build([ast.Constant(value) for value in self.constants])

    def template(self, first: int) -> ast.expr:
        """The expression reading its constants from ``_K[first]``, ``_K[first + 1]`` ..."""
        return self.build([_constant_at(first + i) for i in range(len(self.constants))])

    def __call__(self, values: Values) -> Any:
        """The check on one call's values."""
        locals_ = {"V": values, "_K": self.constants}
        return eval(_template_code(self), SCALAR_GLOBALS, locals_)  # noqa: S307 - our own AST


def _constant_at(position: int) -> ast.expr:
    return ast.Subscript(ast.Name("_K", ast.Load()), ast.Constant(position), ast.Load())


#: Each template compiled alone, by key (for a check evaluated on its own).
_TEMPLATES: dict[Hashable, CodeType] = {}
_MAX_TEMPLATES = 4096


def _template_code(check: ScalarCheck) -> CodeType:
    code = _TEMPLATES.get(check.key)
    if code is None:
        if len(_TEMPLATES) >= _MAX_TEMPLATES:
            _TEMPLATES.clear()
        body = ast.fix_missing_locations(ast.Expression(check.template(0)))
        code = _TEMPLATES[check.key] = compile(body, "<symdebug check>", "eval")
    return code


def scalar_check(key: Hashable, constants: tuple[Any, ...], build: Build) -> ScalarCheck:
    """A :class:`ScalarCheck`: checks of one ``key`` build alike from their constants."""
    return ScalarCheck(key, constants, build)


def compile_scalar_check(code: str) -> ScalarCheck:
    """A function of one call's ``{source: int}`` -> bool, in Python's own arithmetic.

    One call needs no arrays: plain ints answer in a fraction of the time, and a division
    by zero raises (then the check is not evaluated) as it would in Dynamo's guard.
    """
    text = code.strip()
    expression = _scalar_expression(text)
    return scalar_check(("code", text), (), lambda _: expression)


@lru_cache(maxsize=4096)
def _scalar_expression(text: str) -> ast.expr:
    """The check's expression over ``V`` (the entries of a frame repeat their checks)."""
    body: ast.expr = _Sources().visit(guard_expression(text)).body
    return body


def bounded_one(value: ScalarCheck, bound: int, *, lower: bool) -> ScalarCheck:
    """``bound <= value`` (``lower``) or ``value <= bound``, for one call."""
    op: ast.cmpop = ast.GtE() if lower else ast.LtE()
    build, count = value.build, len(value.constants)

    def bounded(parts: Sequence[ast.expr]) -> ast.expr:
        return ast.Compare(build(parts[:count]), [op], [parts[count]])

    return scalar_check((">=" if lower else "<=", value.key), (*value.constants, bound), bounded)


def equals_column(source: str, wanted: object) -> Evaluator:
    """``source == wanted`` over many calls' column (or one call's value, as a 0-d array).

    An int is compared as Dynamo compares it, type first: a column of bools never equals it.
    """

    def evaluate(values: Values) -> Any:
        column = np.asarray(values[source])
        if type(wanted) is int and column.dtype.kind in "bf":
            return np.zeros(column.shape, dtype=bool)
        return column == wanted

    return evaluate


def equals_one(source: str, wanted: object) -> Evaluator:
    """``source == wanted`` for one call's value."""
    if isinstance(wanted, int | str | float | None) and type(wanted) in _CONSTANTS:
        typed = type(wanted) is int  # Dynamo compares an int's type first: not True, not 1.0
        return scalar_check(("==", source, typed), (wanted,), _equals_build(source, typed))
    return lambda values: values[source] == wanted


@lru_cache(maxsize=4096)
def _equals_build(source: str, typed: bool) -> Build:
    def build(parts: Sequence[ast.expr]) -> ast.expr:
        equal = ast.Compare(_read(source), [ast.Eq()], [parts[0]])
        if not typed:
            return equal
        type_of = _call("_type", _read(source))
        is_int = ast.Compare(type_of, [ast.Is()], [ast.Name("_int_type", ast.Load())])
        return ast.BoolOp(ast.And(), [is_int, equal])

    return build


def _call(name: str, argument: ast.expr) -> ast.expr:
    return ast.Call(ast.Name(name, ast.Load()), [argument], [])


#: Values an expression can hold as a literal, compared as ``==`` compares them.
_CONSTANTS = frozenset({int, str, bool, float, type(None)})


def _read(source: str) -> ast.expr:
    return ast.Subscript(ast.Name("V", ast.Load()), ast.Constant(str(source)), ast.Load())


def typed_equals_column(source: str, wanted: object) -> Evaluator:
    """``type(v) is type(wanted) and v == wanted`` per call, as Dynamo compares a value.

    Each value is compared as the object it is: a tuple (``normalized_shape == (32,)``) is
    one value, not a row numpy broadcasts against; a column holding one value for every
    call (a view) is compared once.
    """

    def one(value: Any) -> bool:
        plain = value.item() if isinstance(value, np.generic) else value
        return type(plain) is type(wanted) and bool(plain == wanted)

    return per_value_column(source, one)


def per_value_column(source: str, holds: Callable[[Any], bool]) -> Evaluator:
    """``holds(value)`` for each call's value of ``source``, each value as the object it is.

    A column holding one value for every call (a view) is tested once.
    """

    def evaluate(values: Values) -> Any:
        column = values[source]
        if not isinstance(column, np.ndarray):
            return np.asarray(holds(column))
        if column.size and not any(column.strides):
            return np.broadcast_to(np.asarray(holds(column.flat[0])), column.shape)
        found = np.fromiter(map(holds, column.flat), dtype=bool, count=column.size)
        return found.reshape(column.shape)

    return evaluate

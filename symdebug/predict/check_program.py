"""One entry's checks compiled into one function: which check, if any, one call fails first.

Evaluated one by one, each check costs an ``eval`` and the bookkeeping around it, about a
microsecond; an entry has tens of checks, and a prediction walks several entries.  Compiled
together, with every check that is an expression over the call's values inlined, one call
of the function evaluates all of them in Dynamo's order.

A plan is made for the values a call gives (their names, not their values): a check that
reads a value not given is settled once, as assumed or not evaluated.  The plan decides only
the plain cases, where each check it runs answers a truth value; anything else (a check that
raises) is left to the careful walk of :func:`symdebug.predict.predict._judge`, which says
why.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import CodeType
from typing import Any

from symdebug.predict.check import Check
from symdebug.predict.check_eval import SCALAR_GLOBALS, ScalarCheck, Values
from symdebug.predict.entry_model import EntryModel
from symdebug.predict.guard_grammar import refusal

#: :attr:`EntryPlan.first_failing`'s answer when every check it runs holds.
ALL_HOLD = -1


@dataclass(frozen=True, slots=True)
class EntryPlan:
    """One entry, for calls that give one set of values.

    The checks that read only given values, as one function; what the others add to a hit:
    ``unknown`` (not evaluated) and ``assumed`` (taken as recorded), in Dynamo's order.
    """

    #: The index (in the entry's checks) of the first check that does not hold, or
    #: :data:`ALL_HOLD`; raises where a check raises (a division by zero).
    first_failing: Callable[[Values], int]
    unknown: tuple[str, ...]
    assumed: tuple[str, ...]


def unparsed_texts(model: EntryModel) -> list[str]:
    """The entry's checks that could not be parsed, as a prediction lists them."""
    return [f"{code} ({refusal(code)})" for code in model.unparsed]


def entry_plan(model: EntryModel, given: AbstractSet[str]) -> EntryPlan | None:
    """The plan for calls giving ``given``; None where a value decides more than its check.

    A check reading an item of a container the call passes (``L['kwargs']['mask']``) fails
    the entry when the container lacks it, which only the call's values tell.
    """
    usable: list[tuple[int, Check]] = []
    unknown, assumed = unparsed_texts(model), list[str]()
    for index, check in enumerate(model.checks):
        if all(source in given for source in check.sources):
            usable.append((index, check))
        elif any("][" in source for source in check.sources):
            return None
        elif check.taken_as_recorded:
            text = check.assumption or check.text
            assumed += [] if text in assumed else [text]
        else:
            unknown.append(check.text)
    return EntryPlan(compile_checks(usable), tuple(unknown), tuple(assumed))


def compile_checks(checks: Sequence[tuple[int, Check]]) -> Callable[[Values], int]:
    """The checks, in order, as ``if not (check): return index`` in one function.

    Entries alike but for their constants (see :class:`ScalarCheck`) share one compiled
    template: a frame recompiled a thousand times compiles a handful of functions.
    """
    namespace: dict[str, Any] = dict(SCALAR_GLOBALS)
    key: list[tuple[int, Hashable]] = []
    constants: list[Any] = []
    for index, check in checks:
        evaluate = check.evaluate_one or check.evaluate
        if isinstance(evaluate, ScalarCheck):
            key.append((index, evaluate.key))
            constants += evaluate.constants
        else:
            key.append((index, None))
            namespace[f"_check{index}"] = evaluate
    namespace["_K"] = tuple(constants)
    exec(_plan_code(tuple(key), checks), namespace)  # noqa: S102 - our AST
    found: Callable[[Values], int] = namespace["first_failing"]
    return found


#: Compiled plan templates, by their checks' indexes and keys.
_PLANS: dict[tuple[tuple[int, Hashable], ...], CodeType] = {}
_MAX_PLANS = 1024


def _plan_code(
    key: tuple[tuple[int, Hashable], ...], checks: Sequence[tuple[int, Check]]
) -> CodeType:
    code = _PLANS.get(key)
    if code is None:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        code = _PLANS[key] = compile(_module(_plan_body(checks)), "<symdebug checks>", "exec")
    return code


def _plan_body(checks: Sequence[tuple[int, Check]]) -> list[ast.stmt]:
    """The template's statements: scalar checks inlined, their constants read from ``_K``."""
    body: list[ast.stmt] = []
    first = 0
    for index, check in checks:
        evaluate = check.evaluate_one or check.evaluate
        if isinstance(evaluate, ScalarCheck):
            test = evaluate.template(first)
            first += len(evaluate.constants)
        else:
            test = ast.Call(ast.Name(f"_check{index}", ast.Load()), [_values()], [])
        fails = ast.UnaryOp(ast.Not(), test)
        body.append(ast.If(fails, [ast.Return(ast.Constant(index))], []))
    body.append(ast.Return(ast.Constant(ALL_HOLD)))
    return body


def _values() -> ast.expr:
    return ast.Name("V", ast.Load())


def _module(body: list[ast.stmt]) -> ast.Module:
    arguments = ast.arguments(
        posonlyargs=[], args=[ast.arg("V")], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    function = ast.FunctionDef("first_failing", arguments, body, decorator_list=[], returns=None)
    return ast.fix_missing_locations(ast.Module([function], type_ignores=[]))

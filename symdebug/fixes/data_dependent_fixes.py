"""Fixes of a data-dependent break or error: what lets torch trace past it, with its cost.

The expression (``Eq(u0, 1)``) holds an unbacked symbol: a value with no hint at compile
time (an ``.item()`` result, a ``nonzero`` size, a size marked unbacked).  Suggested, in the
user's names: ``torch.cond`` of the branch's condition (both sides in one graph); for a size
marked unbacked, a backed mark instead; for a value made in the function, making it in the
caller; a ``torch._check`` only of a range true for every input (an ``.item()`` count is
never negative), never of the branch's condition.
"""

from __future__ import annotations

import ast
import re

from symdebug.builders.unbacked import MARKED
from symdebug.fixes.fix_code import branch_condition, without_comment
from symdebug.model.types import Fix, GraphBreak, Symbol

DYNAMIC_SOURCES = "torch.compiler.config.dynamic_sources"
#: Torch's reason for a branch on a tensor's value (``generic_jump``).
_BRANCHING = "Data-dependent branching"
#: Names in a condition that are modules, not values the branch works on.
_MODULES = frozenset({"torch", "math", "F", "np", "nn"})
SYMBOL = re.compile(r"\b(?:u|zuf)\d+\b")
#: ``u0 < 0``, ``u0 >= 0``, ``Eq(u0, -1)``: a sign test a non-negative count decides.
_SIGN = re.compile(
    r"^(?:(?P<s>u\d+) (?P<op><|<=|>|>=) (?P<c>-?\d+)|(?:Eq|Ne)\((?P<e>u\d+), (?P<k>-\d+)\))$"
)


def break_symbol(graph_break: GraphBreak, symbols: dict[tuple[str, str], Symbol]) -> Symbol | None:
    """The unbacked symbol of the break's expression, as the broken compile made it."""
    match = SYMBOL.search(graph_break.expression)
    return symbols.get((graph_break.compile_id, match.group(0))) if match else None


def _cond(graph_break: GraphBreak) -> list[Fix]:
    line = graph_break.user_frame.line if graph_break.user_frame else ""
    condition = branch_condition(line)
    if condition is None:
        return []
    names = [n.id for n in ast.walk(ast.parse(condition)) if isinstance(n, ast.Name)]
    tensors = [n for n in dict.fromkeys(names) if n not in _MODULES]
    operands = f"({', '.join(tensors)},)" if tensors else "()"
    return [
        Fix(
            f"torch.cond({condition}, true_fn, false_fn, {operands})",
            "code",
            f"one graph holds both sides of `if {condition}`, chosen at run time: write each "
            "side as a function of the tensors it uses (true_fn, false_fn, passed as operands); "
            "both are traced and must return tensors of the same shape and dtype. Costs: both "
            "sides compile. Asserting the condition with torch._check would make the other "
            "side raise.",
        )
    ]


def _assigned(symbol: Symbol) -> str | None:
    """The name the user's line gives the value (``n`` of ``n = x.sum().item()``)."""
    line = without_comment(symbol.user_frame.line) if symbol.user_frame else ""
    match = re.match(r"^(\w+)\s*=[^=]", line)
    return match.group(1) if match else None


def _marked(symbol: Symbol) -> list[Fix]:
    source = symbol.sources[0] if symbol.sources else None
    if source is None or not source.is_size or source.tensor is None:
        return []
    name = source.tensor.removeprefix("L['").removesuffix("']")
    if not name.isidentifier():
        return []
    return [
        Fix(
            f"torch._dynamo.maybe_mark_dynamic({name}, {source.dim})",
            "mark",
            f"instead of mark_unbacked: {name}.shape[{source.dim}] stays dynamic but has a value "
            "at compile time, so a branch on it becomes a guard (one recompile for the other "
            "side, e.g. a size of 1) instead of a data-dependent break.",
            {DYNAMIC_SOURCES: f"{source.tensor}:{source.dim}"},
        )
    ]


def _in_caller(symbol: Symbol) -> list[Fix]:
    line = without_comment(symbol.user_frame.line) if symbol.user_frame else ""
    name = _assigned(symbol)
    if name is None:
        return []
    return [
        Fix(
            line,
            "code",
            f"in the caller, before the compiled call, and pass {name} in: it reaches the "
            "compiled function as an input with a value, so the branch is a guard, not a "
            f"break. Costs: a recompile per distinct {name} until it is dynamic.",
        )
    ]


def _check(graph_break: GraphBreak, symbol: Symbol) -> list[Fix]:
    match = _SIGN.match(graph_break.expression)
    name = _assigned(symbol)
    if match is None or name is None or symbol.origin != "the result of .item()":
        return []
    if match["c"] is not None and not _decided(match["op"], int(match["c"])):
        return []
    return [
        Fix(
            f"torch._check({name} >= 0)",
            "code",
            f"right after {name} is made, only if {name} is a count (never negative for any "
            "input): torch then decides the sign test and does not break. If an input makes "
            f"{name} negative, the call raises.",
        )
    ]


def _decided(op: str, constant: int) -> bool:
    """Whether ``u op constant`` has one answer for every ``u >= 0``."""
    return constant <= 0 if op in ("<", ">=") else constant < 0


def data_dependent_fixes(graph_break: GraphBreak, symbol: Symbol | None) -> list[Fix]:
    """The fixes of a data-dependent break, best first; none for other breaks.

    A branch on a tensor's value (``if h.sum() > 0:``) has no expression: torch.cond.
    """
    if not graph_break.expression:
        return _cond(graph_break) if _BRANCHING in graph_break.reason else []
    fixes = _cond(graph_break)
    if symbol is None:
        return fixes
    if symbol.origin == MARKED:
        return [*_marked(symbol), *fixes]
    return [*_check(graph_break, symbol), *fixes, *_in_caller(symbol)]

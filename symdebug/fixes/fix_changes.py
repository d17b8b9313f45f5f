"""Fixes that change the user's code: kept correct for every size, each with its cost."""

from __future__ import annotations

import ast
import re

from symdebug.fixes.fix_code import (
    branch_condition,
    computed_index,
    divided_symbol,
    divisor,
    pins_a_size,
    python_expression,
)
from symdebug.fixes.fix_evidence import SIZE_OBLIVIOUS, Evidence, markable, setting
from symdebug.model.types import Fix


def _condition(evidence: Evidence) -> str | None:
    return branch_condition(evidence.line) or python_expression(evidence.expr, dict(evidence.names))


#: Names in a condition that are modules, not values the branch works on.
_MODULES = frozenset({"torch", "math", "F", "np", "nn", "len"})


def _operands(evidence: Evidence) -> str:
    """The values the branch's own condition reads (``h`` of ``if h.shape[1] > 4:``).

    From the user's line, never the argument list: a branch on a value computed inside the
    function works on that value.  Without a line, the tensors the guard's sizes name.
    """
    condition = branch_condition(evidence.line)
    if condition is not None:
        names = [n.id for n in ast.walk(ast.parse(condition)) if isinstance(n, ast.Name)]
        tensors = [n for n in dict.fromkeys(names) if n not in _MODULES]
    else:
        sizes = [text for _, text in evidence.names if ".shape[" in text]
        tensors = list(dict.fromkeys(text.rsplit(".shape[", 1)[0] for text in sizes))
    return f"({', '.join(tensors)},)" if tensors else "()"


def branch_fixes(evidence: Evidence) -> list[Fix]:
    """A branch on a size: torch.cond with the condition in the user's names."""
    condition = _condition(evidence)
    if condition is None:
        return []
    operands = _operands(evidence)
    return [
        Fix(
            f"torch.cond({condition}, true_fn, false_fn, {operands})",
            "code",
            f"one graph for both sides of `if {condition}`: write each side as a function of "
            f"{operands} (true_fn, false_fn); both are traced and must return tensors of the "
            "same shape and dtype. Without it each side compiles once (one graph per side, "
            "bounded). Asserting the condition with torch._check would make the other side "
            "raise.",
        )
    ]


#: ``Ne((s17//2), 1)``: whether a size is 1 (a stride check, a broadcast), not a divisibility.
#: Also as torch words a failed check (``(y.size()[0] // 2) != 1``) when no guard holds it.
_SIZE_ONE = re.compile(r"^(?:(?:Eq|Ne)\((?P<size>.+), 1\)|(?P<check>.+) [!=]= 1)$")


def op_requirement_fixes(evidence: Evidence) -> list[Fix]:
    """An op that needs a size fact: an index, a size of 1, a divisibility, equal sizes."""
    if pins_a_size(evidence.expr) and _SIZE_ONE.match(evidence.expr) is None:
        return _index_fixes(evidence)
    if (one := _SIZE_ONE.match(evidence.expr)) is not None:
        return _size_one(evidence, one["size"] or one["check"])
    k = divisor(evidence.expr)
    if k is not None:
        return _padding(evidence, k)
    return _equal_sizes(evidence)


def _index_fixes(evidence: Evidence) -> list[Fix]:
    use = computed_index(evidence.line)
    if use is None:
        return []
    same = "if nothing else fixes the size, one graph serves every size"
    fixes = [
        Fix(
            f"{use.tensor}.select({use.dim}, {use.index})",
            "code",
            f"the same element, with {use.index} kept an expression of the size instead of "
            f"fixing the size: {same}.",
        ),
        Fix(
            f"torch.narrow({use.tensor}, {use.dim}, {use.index}, 1)",
            "code",
            f"a view that keeps dim {use.dim} (length 1; squeeze({use.dim}) drops it): {same}.",
        ),
    ]
    if use.negative is not None:
        fixes.insert(
            0,
            Fix(
                use.negative,
                "code",
                f"a negative index counts from the end, so the graph needs no size: {same} "
                f"(the same as {use.tensor}.select({use.dim}, -{use.from_end})).",
            ),
        )
    return fixes


def _padding(evidence: Evidence, k: int) -> list[Fix]:
    marked = markable(evidence.source) if evidence.source is not None else None
    if marked is None:
        return []
    name, _, dim = marked
    size = f"{name}.shape[{dim}]"
    symbol = divided_symbol(evidence.expr)
    if symbol is None or dict(evidence.names).get(symbol) != size:
        return []  # the guard asks something else to be a multiple (a numel): no one dim
    pad = f"torch.nn.functional.pad({name}.movedim({dim}, -1), (0, -{size} % {k}))"
    return [
        Fix(
            f"{name} = {pad}.movedim(-1, {dim})",
            "code",
            f"the op needs {size} to be a multiple of {k}, so torch compiles once per remainder "
            f"of {size} % {k}; padding to a multiple makes every size take one path (drop or "
            "mask the padded part after; costs a copy). A torch._check would make every other "
            "size raise.",
        )
    ]


def _equal_sizes(evidence: Evidence) -> list[Fix]:
    """Two sizes an op needs equal: a check, honest about the calls it would break."""
    if not evidence.expr.startswith("Eq(") or len(evidence.names) < 2:
        return []
    expression = python_expression(evidence.expr, dict(evidence.names))
    if expression is None:
        return []
    return [
        Fix(
            f"torch._check({expression})",
            "code",
            "only if these sizes are equal on every call: it asserts this for every future "
            "call, and a call where they differ (a size of 1 that broadcasts) then raises "
            "instead of recompiling.",
        )
    ]


def _size_one(evidence: Evidence, size: str) -> list[Fix]:
    """The op asked whether a size is 1: one compile for 1 and one for the rest.

    ``check_contiguous_sizes_strides`` skips the stride of a size-1 dim, broadcasting
    treats it apart; size-oblivious reasoning assumes it is not 1.
    """
    text = python_expression(size, dict(evidence.names)) or size.replace(".size()[", ".shape[")
    return [
        setting(
            SIZE_OBLIVIOUS,
            True,
            f"the op checks whether {text} is 1 (a dim of size 1 has no stride to check, or "
            "it broadcasts), so sizes 1 and the others compile apart; size-oblivious "
            "reasoning assumes it is not 1 wherever the result is the same. Costs: where the "
            "program broadcasts a size of 1 or branches on it, torch may compile again or "
            "fail at run time.",
        )
    ]

"""Compile budgets: what a session's facts count against a budget, and the first excess.

A budget bounds four counts of the compiles made while it was held (what a capture of the
block saw; compiles from before it are not counted, and Dynamo is not reset):

``compiles``
    Every Dynamo compile (``torch.compile``): first compiles, recompiles, resume frames of
    graph breaks, failed ones.  ``torch.export`` calls are not counted.
``recompiles``
    Every recompile: a compile made because a cached entry of its frame failed a check.
``graph_breaks``
    Distinct graph breaks: one per user line and reason (a frame that recompiles breaks
    again at the same line: counted once), skipped frames and ``fullgraph=True`` failures
    included.
``specializations``
    Distinct inputs (per frame) made a constant for a reason of their own: not
    ``static_by_default`` (a size or int not seen changing yet, what automatic dynamic
    handles on its own and the recompile count says), not ``mark_static`` (asked for), and
    not a library's model-configuration constant (``Symbol.expected``, grouped in
    ``Compile.expected_constants``).

Reads facts only; :mod:`symdebug.queries.budget_text` words the excess.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Literal

from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Facts, GraphBreak, Recompile, Specialization
from symdebug.model.values import Cause

BudgetKind = Literal["recompiles", "graph_breaks", "specializations", "compiles"]
#: The order an excess of several kinds is said in: the most telling first.
KINDS: tuple[BudgetKind, ...] = ("recompiles", "graph_breaks", "specializations", "compiles")
#: Specializations a budget does not count (see the module's docstring).
UNCOUNTED_CAUSES: frozenset[Cause] = frozenset({"static_by_default", "mark_static"})

Fact = Compile | Recompile | GraphBreak | Specialization


@dataclass(frozen=True, slots=True)
class Budget:
    """The most of each count a block may make; None: no limit on that count."""

    recompiles: int | None = 0
    compiles: int | None = None
    graph_breaks: int | None = None
    specializations: int | None = None

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{item.name} must be None or an int >= 0, not {value!r}")

    def limits(self) -> dict[BudgetKind, int]:
        """The counts that have a limit, in the order :data:`KINDS` says them."""
        found = {kind: getattr(self, kind) for kind in KINDS}
        return {kind: limit for kind, limit in found.items() if limit is not None}

    def __str__(self) -> str:
        return ", ".join(f"{kind}={limit}" for kind, limit in self.limits().items())


@dataclass(slots=True)
class Counted:
    """One thing a budget counts: its fact, the compile it is of, and how often it happened.

    ``values`` are a specialized input's constants, in order; ``compiles`` the compiles a
    graph break happened in.
    """

    fact: Fact
    compile: Compile | None
    values: list[int | str]
    compiles: list[str]


@dataclass(slots=True)
class Excess:
    """A count over its limit: every item counted; ``first`` is the first over the limit."""

    kind: BudgetKind
    limit: int
    items: list[Counted]

    @property
    def first(self) -> Counted:
        """The item that went over the limit (the ``limit + 1``-th counted)."""
        return self.items[self.limit]


def excesses(facts: Facts, budget: Budget) -> list[Excess]:
    """The counts of ``facts`` over ``budget``, in the order of :data:`KINDS`.

    Parameters
    ----------
    facts
        What a capture of the budgeted block saw.
    budget
        The limits.

    Returns
    -------
    list of Excess
        One per count over its limit; empty when the block kept to the budget.
    """
    index = FactIndex(facts)
    found = []
    for kind, limit in budget.limits().items():
        items = COUNTERS[kind](index)
        if len(items) > limit:
            found.append(Excess(kind, limit, items))
    return found


def counts(facts: Facts) -> dict[BudgetKind, int]:
    """How many of each kind ``facts`` hold, as a budget counts them."""
    index = FactIndex(facts)
    return {kind: len(COUNTERS[kind](index)) for kind in KINDS}


def _compiled(index: FactIndex) -> list[Compile]:
    return [c for c in index.facts.compiles if c.kind == "compile"]


def _compiles(index: FactIndex) -> list[Counted]:
    return [Counted(c, c, [], [c.compile_id]) for c in _compiled(index)]


def _recompiles(index: FactIndex) -> list[Counted]:
    found = (index.recompile.get(c.compile_id) for c in _compiled(index))
    return [
        Counted(r, index.compile.get(r.compile_id), [], [r.compile_id])
        for r in found
        if r is not None
    ]


#: An object's address in a reason (``<object at 0x7f...>``): it differs in every call.
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _break_key(graph_break: GraphBreak) -> tuple[str, int, str]:
    frame = graph_break.user_frame or graph_break.library_frame  # DDP's own: its line
    reason = _ADDRESS.sub("0x", graph_break.reason.split("\n", 1)[0])
    return (frame.filename, frame.lineno, reason) if frame else ("", 0, reason)


def _graph_breaks(index: FactIndex) -> list[Counted]:
    found: dict[tuple[str, int, str], Counted] = {}
    for compile_ in _compiled(index):
        for graph_break in index.graph_breaks.get(compile_.compile_id, []):
            item = found.setdefault(_break_key(graph_break), Counted(graph_break, compile_, [], []))
            item.compiles.append(compile_.compile_id)
    return list(found.values())


def _expected(index: FactIndex) -> set[tuple[str, str]]:
    """``(compile id, source)`` of each library model-configuration constant."""
    return {
        (symbol.compile_id, source)
        for symbol in index.facts.symbols
        if symbol.expected is not None
        for source in symbol.sources
    }


def _specializations(index: FactIndex) -> list[Counted]:
    found: dict[tuple[int, int, str], Counted] = {}
    expected = _expected(index)
    for compile_ in _compiled(index):
        for spec in index.specializations_of(compile_.compile_id):
            if spec.cause in UNCOUNTED_CAUSES or (spec.compile_id, spec.source) in expected:
                continue
            key = (compile_.generation, compile_.frame_id, spec.source)
            item = found.setdefault(key, Counted(spec, compile_, [], []))
            item.values += [] if spec.value in item.values else [spec.value]
            item.compiles.append(compile_.compile_id)
    return list(found.values())


COUNTERS: dict[BudgetKind, Callable[[FactIndex], list[Counted]]] = {
    "compiles": _compiles,
    "recompiles": _recompiles,
    "graph_breaks": _graph_breaks,
    "specializations": _specializations,
}

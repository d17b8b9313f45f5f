"""Facts grouped by compile id and by input, so that no question scans every fact.

An index is a snapshot: build it after the facts it reads are final (each pass builds its
own; a Session keeps one per set of facts).  Building one is linear in the facts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import cached_property
from typing import TypeVar

from symdebug.model.code_types import FxNode, GraphCode, Kernel
from symdebug.model.types import (
    Compile,
    Facts,
    GraphBreak,
    Guard,
    Recompile,
    SourceExplanation,
    Specialization,
    Symbol,
)
from symdebug.model.values import Source

_T = TypeVar("_T")


def _by_compile(items: Iterable[_T], key: str = "compile_id") -> dict[str, list[_T]]:
    grouped: dict[str, list[_T]] = defaultdict(list)
    for item in items:
        grouped[getattr(item, key)].append(item)
    return grouped


class FactIndex:
    """Lookups over one set of facts: per compile, per input, in compile order.

    Each grouping is made on first use, so a pass pays only for the lookups it makes.
    """

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._by_source: dict[str, list[Symbol]] | None = None
        self._recompiles_by_source: dict[str, list[Recompile]] | None = None

    @cached_property
    def compile(self) -> dict[str, Compile]:
        """Compiles by id."""
        return {c.compile_id: c for c in self.facts.compiles}

    @cached_property
    def order(self) -> dict[str, int]:
        """The position of each compile id, in the order the compiles happened."""
        return {c.compile_id: i for i, c in enumerate(self.facts.compiles)}

    @cached_property
    def guards(self) -> dict[str, list[Guard]]:
        """Guards by compile id."""
        return _by_compile(self.facts.guards)

    @cached_property
    def symbols(self) -> dict[str, list[Symbol]]:
        """Symbols and constants by compile id."""
        return _by_compile(self.facts.symbols)

    @cached_property
    def specializations(self) -> dict[str, list[Specialization]]:
        """Specializations by compile id."""
        return _by_compile(self.facts.specializations)

    @cached_property
    def fx_nodes(self) -> dict[str, list[FxNode]]:
        """Dynamo graph nodes by compile id."""
        return _by_compile(self.facts.fx_nodes)

    @cached_property
    def kernels(self) -> dict[str, list[Kernel]]:
        """Generated kernels by compile id."""
        return _by_compile(self.facts.kernels)

    @cached_property
    def graph_code(self) -> dict[str, list[GraphCode]]:
        """Compiled graphs' wrappers by compile id."""
        return _by_compile(self.facts.graph_code)

    @cached_property
    def graph_breaks(self) -> dict[str, list[GraphBreak]]:
        """Graph breaks by the compile they ended."""
        return _by_compile(self.facts.graph_breaks)

    @cached_property
    def recompile(self) -> dict[str, Recompile]:
        """The Recompile record of a compile, by its id."""
        return {r.compile_id: r for r in self.facts.recompiles}

    @cached_property
    def guard(self) -> dict[str, Guard]:
        """Guards by id."""
        return {g.id: g for g in self.facts.guards}

    @cached_property
    def explanations(self) -> dict[str, SourceExplanation]:
        """Stored explanations by input."""
        return {e.source: e for e in self.facts.explanations}

    def guards_of(self, compile_id: str | None) -> list[Guard]:
        """Guards of one compile, in the order torch added them."""
        return self.guards.get(compile_id or "", [])

    def symbols_of(self, compile_id: str) -> list[Symbol]:
        """Symbols (and constant entries) of one compile."""
        return self.symbols.get(compile_id, [])

    def is_expected(self, spec: Specialization) -> bool:
        """Whether the input is a library's configuration constant (``Symbol.expected``)."""
        symbols = self.symbols_of(spec.compile_id)
        return any(s.expected is not None and spec.source in s.sources for s in symbols)

    def specializations_of(self, compile_id: str | None) -> list[Specialization]:
        """Specializations of one compile."""
        return self.specializations.get(compile_id or "", [])

    def specialization(self, compile_id: str, source: str) -> Specialization | None:
        """The specialization of ``source`` in one compile, if it became a constant there."""
        return next((s for s in self.specializations_of(compile_id) if s.source == source), None)

    def symbols_for(self, source: str) -> list[Symbol]:
        """Symbols and constants of an input (with or without ``L[...]``), in compile order."""
        if self._by_source is None:
            grouped: dict[str, list[Symbol]] = defaultdict(list)
            for symbol in sorted(self.facts.symbols, key=self._compile_position):
                for stripped in dict.fromkeys(Source(s).stripped for s in symbol.sources):
                    grouped[stripped].append(symbol)
            self._by_source = grouped
        return self._by_source.get(Source(source).stripped, [])

    def recompiles_for(self, source: str) -> list[Recompile]:
        """Recompiles whose failed check was on this input."""
        if self._recompiles_by_source is None:
            grouped: dict[str, list[Recompile]] = defaultdict(list)
            for recompile in self.facts.recompiles:
                for stripped in dict.fromkeys(Source(s).stripped for s in recompile.sources):
                    grouped[stripped].append(recompile)
            self._recompiles_by_source = grouped
        return self._recompiles_by_source.get(Source(source).stripped, [])

    def explanation(self, source: str) -> SourceExplanation | None:
        """The stored explanation of an input, exactly as named."""
        return self.explanations.get(source)

    def _compile_position(self, item: Symbol) -> int:
        return self.order.get(item.compile_id, -1)

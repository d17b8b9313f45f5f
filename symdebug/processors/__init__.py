"""Processors: pure functions that enrich the facts in place, in a fixed order."""

from __future__ import annotations

from symdebug.model.types import Facts
from symdebug.processors.causes import classify_guards, classify_specializations
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.recompiles import link_recompiles
from symdebug.processors.symbols import attach_guard_sources, settle_symbol_states


def enrich(facts: Facts) -> None:
    """Run every processor: sources, causes, recompile links, symbol states, fixes."""
    attach_guard_sources(facts)
    classify_guards(facts)
    classify_specializations(facts)
    link_recompiles(facts)
    settle_symbol_states(facts)
    suggest_fixes(facts)

"""Processors: pure functions that enrich the facts in place, in a fixed order."""

from __future__ import annotations

from symdebug.model.types import Facts
from symdebug.processors.causes import classify_guards, classify_specializations
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.kernel_audit import explain_specialized_dims
from symdebug.processors.links import link_fx_nodes, link_kernels
from symdebug.processors.recompiles import link_recompiles
from symdebug.processors.symbols import attach_guard_sources, settle_symbol_states


def enrich(facts: Facts) -> None:
    """Run every processor: sources, causes, node links, recompiles, states, fixes, kernels."""
    attach_guard_sources(facts)
    classify_guards(facts)
    link_fx_nodes(facts)
    link_kernels(facts)
    classify_specializations(facts)
    link_recompiles(facts)
    settle_symbol_states(facts)
    suggest_fixes(facts)
    explain_specialized_dims(facts)

"""Build the session's facts from one event stream, then run the processors."""

from __future__ import annotations

from symdebug.events import EventStream
from symdebug.model.compile_builder import build_compile
from symdebug.model.compile_events import CompileEvents, group_by_compile
from symdebug.model.graph_dump import parse_nodes
from symdebug.model.guard_tree import parse_guard_tree
from symdebug.model.guards_builder import build_guards
from symdebug.model.kernels_builder import build_kernels
from symdebug.model.specializations_builder import build_specializations
from symdebug.model.symbols_builder import build_symbols
from symdebug.model.types import Facts
from symdebug.processors import enrich
from symdebug.processors.cells import alias_files

MAX_PROBLEM_EXAMPLES = 20


def _build_compile(facts: Facts, group: CompileEvents, strings: dict[int, str]) -> None:
    """Every fact of one compile, added to ``facts`` only once all of them were built."""
    tree_event = group.last("dynamo_cpp_guards_str")
    tree = parse_guard_tree(tree_event.payload if tree_event is not None else None)
    guards = build_guards(group, strings)
    symbols = build_symbols(group, tree, strings)
    compile_ = build_compile(group, tree, symbols, strings)
    specializations = build_specializations(group, tree, guards, strings)
    graph_event = group.last("dynamo_output_graph")
    nodes = (
        parse_nodes(graph_event.payload, group.compile_id)
        if graph_event and graph_event.payload
        else []
    )
    kernels, graph_code = build_kernels(group, symbols)
    facts.compiles.append(compile_)
    facts.guards.extend(guards)
    facts.symbols.extend(symbols)
    facts.specializations.extend(specializations)
    facts.fx_nodes.extend(nodes)
    facts.kernels.extend(kernels)
    facts.graph_code.extend(graph_code)


def _build_or_count(facts: Facts, group: CompileEvents, strings: dict[int, str]) -> None:
    """Build one compile; a malformed event costs that compile (counted), never the session."""
    try:
        _build_compile(facts, group, strings)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as error:
        facts.problems["bad_event"] = facts.problems.get("bad_event", 0) + 1
        if len(facts.problem_examples) < MAX_PROBLEM_EXAMPLES:
            facts.problem_examples.append(f"bad_event in compile {group.compile_id}: {error!r}")


def build(stream: EventStream, *, capture_errors: int = 0) -> Facts:
    """All facts of a stream: compiles, guards, symbols, specializations, recompiles."""
    facts = Facts(source=stream.source, capture_errors=capture_errors)
    facts.problems = stream.problem_counts()
    facts.problem_examples = [
        f"{p.kind} at {p.where}: {p.detail}" for p in stream.problems[:MAX_PROBLEM_EXAMPLES]
    ]
    strings = stream.strings
    for group in group_by_compile(stream.events):
        _build_or_count(facts, group, strings)
    facts.rank = next((c.rank for c in facts.compiles if c.rank is not None), None)
    enrich(facts)
    alias_files(facts, stream.file_aliases)
    return facts

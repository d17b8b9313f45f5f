"""The one pipeline: an event stream becomes facts, then each pass enriches them.

Both sources of events (live capture and ``TORCH_TRACE`` files) come through :func:`build`.
First every compile's facts are built from its own events (``symdebug.model`` builders);
then the passes of :data:`PASSES` run in order.  Each pass declares the facts it reads and
writes, and :func:`check_order` proves that no pass reads what a later one writes, so the
order is a checked fact rather than a convention.

Set ``SYMDEBUG_STRICT=1`` to make a compile that cannot be built raise instead of being
counted as a ``bad_event`` problem (the test suite runs strict).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from symdebug.builders.compile_builder import build_compile
from symdebug.builders.compile_events import CompileEvents, group_by_compile
from symdebug.builders.graph_breaks_builder import build_graph_breaks
from symdebug.builders.guards_builder import build_guards
from symdebug.builders.kernels_builder import build_kernels
from symdebug.builders.specializations_builder import build_specializations
from symdebug.builders.symbols_builder import build_symbols
from symdebug.events import Event, EventStream
from symdebug.model.types import Facts
from symdebug.processors.causes import classify_guards, classify_specializations
from symdebug.processors.cells import alias_files
from symdebug.processors.explanations import explain_sources
from symdebug.processors.export_fixes import suggest_export_fixes
from symdebug.processors.failures import settle_failed_breaks
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.graph_break_steps import explain_graph_breaks
from symdebug.processors.graph_breaks import link_graph_breaks
from symdebug.processors.guard_names import name_guards
from symdebug.processors.kernel_audit import explain_specialized_dims
from symdebug.processors.links import link_fx_nodes, link_kernels
from symdebug.processors.mark_lines import link_marks
from symdebug.processors.recompiles import link_recompiles
from symdebug.processors.symbols import attach_guard_sources, settle_symbol_states
from symdebug.processors.user_names import name_symbols, rename_fix_inputs
from symdebug.torchtext.graph_dump import parse_nodes
from symdebug.torchtext.guard_tree import parse_guard_tree
from symdebug.torchtext.source_text import sources_read
from symdebug.torchtext.stacks import StackReader

MAX_PROBLEM_EXAMPLES = 20
STRICT_VARIABLE = "SYMDEBUG_STRICT"
#: The source of a live capture's stream (a log's is its path).
LIVE = "live"
#: The events whose payload a builder reads; the others' payloads (AOT and Inductor graphs,
#: configs, runnable repros: half a log's text) no fact holds.
READ_PAYLOADS = frozenset(
    {
        "dynamo_cpp_guards_str",
        "dynamo_output_graph",
        "inductor_output_code",
        "artifact:inductor_provenance_tracking_node_mappings",
        "artifact:recompile_reasons",
        "artifact:dynamo_graph_break_reason",
    }
)


def without_unread_payloads(events: Iterable[Event]) -> Iterator[Event]:
    """The events as they come, each payload no builder reads dropped (the event is kept).

    A log's events are all held until the last is read (a compile's backward can come after
    its metrics), so what no fact needs is let go as each event is read.
    """
    for event in events:
        if event.payload is not None and event.name not in READ_PAYLOADS:
            event.payload = None
        yield event


@dataclass(frozen=True, slots=True)
class Pass:
    """One enrichment step: what it reads and writes, as ``"<fact list>.<field>"``."""

    name: str
    run: Callable[[Facts], None]
    reads: frozenset[str]
    writes: frozenset[str]


def _pass(name: str, run: Callable[[Facts], None], reads: str, writes: str) -> Pass:
    return Pass(name, run, frozenset(reads.split()), frozenset(writes.split()))


ENRICHING: tuple[Pass, ...] = (
    _pass(
        "guard sources",
        attach_guard_sources,
        reads="symbols.sources guards.symbols",
        writes="guards.sources",
    ),
    _pass(
        "FX nodes",
        link_fx_nodes,
        reads="fx_nodes guards.user_stack guards.framework_stack guards.aot_node guards.symbols"
        " guards.instruction guards.phase guards.aot_graph",
        writes="guards.fx_node guards.fx_node_target guards.fx_node_inferred guards.line_nodes",
    ),
    _pass(
        "guard causes",
        classify_guards,
        reads="guards.phase guards.framework_stack guards.fx_node guards.fx_node_inferred"
        " guards.instruction guards.aot_graph",
        writes="guards.cause",
    ),
    _pass(
        "kernels",
        link_kernels,
        reads="kernels guards.inductor_node guards.aot_graph",
        writes="guards.kernel",
    ),
    _pass(
        "specialization causes",
        classify_specializations,
        reads="compiles symbols.sources specializations.guards guards.cause",
        writes="specializations.cause",
    ),
    _pass(
        "recompiles",
        link_recompiles,
        reads="compiles.recompile_reasons specializations.cause guards.cause guards.sources"
        " guards.status guards.user_stack guards.framework_stack symbols.hint compiles.caller"
        " compiles.callee compiles.filename compiles.inputs compiles.marked_dynamic"
        " guards.user_frame specializations.user_frame guards.inductor_node fx_nodes",
        writes="recompiles compiles.name",
    ),
    _pass(
        "lines that marked",
        link_marks,
        reads="marks recompiles.cause recompiles.sources recompiles.reasons compiles.inputs"
        " compiles.caller",
        writes="recompiles.user_frame",
    ),
    _pass(
        "symbol states",
        settle_symbol_states,
        reads="specializations.cause symbols.sources",
        writes="symbols.state symbols.cause constant_symbols",
    ),
    _pass(
        "fixes",
        suggest_fixes,
        reads="guards.cause guards.sources specializations.cause recompiles.cause"
        " recompiles.sources symbols.state symbols.cause constant_symbols",
        writes="guards.fix specializations.fix recompiles.fix symbols.fix"
        " guards.fixes specializations.fixes recompiles.fixes symbols.fixes",
    ),
    _pass(
        "export fixes",
        suggest_export_fixes,
        reads="compiles.kind compiles.fail_reason specializations.cause symbols.sources"
        " guards.sources",
        writes="specializations.fix specializations.fixes symbols.fix symbols.fixes"
        " guards.fix guards.fixes",
    ),
    _pass(
        "failed compiles that raised",
        settle_failed_breaks,
        reads="compiles.status compiles.fail_type",
        writes="graph_breaks.skipped graph_breaks.failed",
    ),
    _pass(
        "graph breaks",
        link_graph_breaks,
        reads="graph_breaks.user_stack graph_breaks.skipped graph_breaks.reason"
        " graph_breaks.explanation graph_breaks.expression compiles symbols.hint"
        " symbols.origin symbols.user_frame symbols.sources",
        writes="graph_breaks.resume_frames graph_breaks.resume_compiles graph_breaks.lost"
        " graph_breaks.fixes",
    ),
    _pass(
        "baked-in dims",
        explain_specialized_dims,
        reads="graph_code guards.cause guards.framework_stack",
        writes="graph_code.specialized_dims",
    ),
    _pass(
        "fixes in the user's names",
        rename_fix_inputs,
        reads="compiles.callee",
        writes="guards.fix specializations.fix recompiles.fix symbols.fix"
        " guards.fixes specializations.fixes recompiles.fixes symbols.fixes",
    ),
    _pass(
        "symbols in the user's names, a library's constants grouped",
        name_symbols,
        reads="compiles.callee compiles.filename symbols.sources symbols.state symbols.cause"
        " symbols.user_frame",
        writes="symbols.user_names symbols.expected compiles.expected_constants",
    ),
    _pass(
        "guards and recompiles' inputs in the user's names",
        name_guards,
        reads="compiles.callee guards.expr guards.symbols guards.sources recompiles.sources",
        writes="guards.user_expr recompiles.user_names",
    ),
)


EXPLAINING = _pass(
    "explanations",
    explain_sources,
    reads="symbols.sources constant_symbols symbols.state symbols.cause symbols.fixes"
    " specializations.fixes recompiles.sources recompiles.fixes guards.fx_node file_names"
    " guards.user_stack compiles.caller compiles.callee",
    writes="explanations",
)


#: After the explanations: what a graph break cost an input is a step of its answer.
BREAK_STEPS = _pass(
    "graph break steps",
    explain_graph_breaks,
    reads="explanations graph_breaks.lost graph_breaks.fixes graph_breaks.user_frame file_names"
    " graph_breaks.expression symbols.state symbols.sources",
    writes="explanations.steps explanations.fixes",
)


def renaming(aliases: Mapping[str, str]) -> Pass:
    """Notebook cells as ``Cell [N]``: after every pass that matches torch's own file names.

    It changes how files are named, not which frame is which: it writes ``file_names``,
    which only the explanations (text people read) depend on.
    """
    return _pass("cell names", partial(alias_files, aliases=aliases), "", "file_names")


def passes(aliases: Mapping[str, str] | None = None) -> tuple[Pass, ...]:
    """Every pass, in order, for a stream with these file aliases."""
    return (*ENRICHING, renaming(aliases or {}), EXPLAINING, BREAK_STEPS)


#: The passes of a stream without file aliases (declared order, checked below).
PASSES = passes()


def check_order(passes: Iterable[Pass]) -> None:
    """Raise ``ValueError`` if a pass reads a fact that a later pass writes."""
    ordered = list(passes)
    for index, step in enumerate(ordered):
        for later in ordered[index + 1 :]:
            clash = _overlap(step.reads, later.writes)
            if clash:
                raise ValueError(
                    f"pass {step.name!r} reads {clash} before {later.name!r} writes it"
                )


def _overlap(reads: frozenset[str], writes: frozenset[str]) -> list[str]:
    """Facts in both; writing a whole list (``symbols``) counts for each of its fields."""
    return sorted(r for r in reads for w in writes if r == w or r.startswith(w + "."))


check_order(PASSES)


def strict_mode() -> bool:
    """Whether ``SYMDEBUG_STRICT`` asks errors to be raised rather than counted."""
    return os.environ.get(STRICT_VARIABLE, "") not in ("", "0")


def build_compile_facts(facts: Facts, group: CompileEvents, reader: StackReader) -> None:
    """Every fact of one compile, added to ``facts`` only once all of them were built."""
    tree_event = group.last("dynamo_cpp_guards_str")
    tree = parse_guard_tree(tree_event.payload if tree_event is not None else None)
    guards = build_guards(group, reader)
    symbols = build_symbols(group, tree, reader)
    compile_ = build_compile(group, tree, symbols, reader)
    specializations = build_specializations(group, tree, guards, reader)
    graph_event = group.last("dynamo_output_graph")
    payload = graph_event.payload if graph_event is not None else None
    kernels, graph_code = build_kernels(group, symbols)
    facts.compiles.append(compile_)
    facts.guards.extend(guards)
    facts.symbols.extend(symbols)
    facts.specializations.extend(specializations)
    facts.fx_nodes.extend(parse_nodes(payload, group.compile_id) if payload else [])
    facts.kernels.extend(kernels)
    facts.graph_code.extend(graph_code)
    facts.graph_breaks.extend(build_graph_breaks(group, compile_))


def build_or_count(facts: Facts, group: CompileEvents, reader: StackReader) -> None:
    """Build one compile; a malformed event costs that compile (counted), never the session."""
    try:
        build_compile_facts(facts, group, reader)
    except Exception as error:
        if strict_mode():
            raise
        _count_problem(facts, "bad_event", f"in compile {group.compile_id}: {error!r}")


def facts_of_compiles(stream: EventStream, *, capture_errors: int = 0) -> Facts:
    """The facts each compile's own events say, before any pass ran."""
    facts = Facts(source=stream.source, capture_errors=capture_errors)
    facts.problems = stream.problem_counts()
    facts.problem_examples = [
        f"{p.kind} at {p.where}: {p.detail}" for p in stream.problems[:MAX_PROBLEM_EXAMPLES]
    ]
    reader = StackReader(stream.strings)
    for group in group_by_compile(stream.events):
        build_or_count(facts, group, reader)
    facts.rank = next((c.rank for c in facts.compiles if c.rank is not None), None)
    return facts


def enrich(facts: Facts, passes: Iterable[Pass] = PASSES) -> Facts:
    """Run the passes in order, in place; return the facts.

    A pass that fails on a value it did not expect costs what it would have added (counted as
    ``bad_pass``), never the facts already built; strict mode raises instead.
    """
    for step in passes:
        _run_or_count(step, facts)
    return facts


def _run_or_count(step: Pass, facts: Facts) -> None:
    try:
        step.run(facts)
    except Exception as error:
        if strict_mode():
            raise
        _count_problem(facts, "bad_pass", f"in pass {step.name!r}: {error!r}")


def _count_problem(facts: Facts, kind: str, example: str) -> None:
    facts.problems[kind] = facts.problems.get(kind, 0) + 1
    if len(facts.problem_examples) < MAX_PROBLEM_EXAMPLES:
        facts.problem_examples.append(f"{kind} {example}")


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while facts are built.

    Building allocates hundreds of thousands of small objects and frees almost none, so each
    automatic collection scans every live event again: a third of the build time.  On exit
    what was built is moved to the oldest generation without a scan (``freeze`` then
    ``unfreeze`` only splice lists): the facts are long-lived, and the first collection after
    re-enabling would otherwise walk all of them once more.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:  # never unfreeze what the program itself froze
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def build(stream: EventStream, *, capture_errors: int = 0) -> Facts:
    """All facts of a stream: built per compile, then every pass, in order."""
    with collector_paused(), sources_read(stream.source == LIVE):  # a log: the log alone
        facts = facts_of_compiles(stream, capture_errors=capture_errors)
        return enrich(facts, passes(stream.file_aliases))

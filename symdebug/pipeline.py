"""The one pipeline: an event stream becomes facts, then each pass enriches them.

Both sources of events (live capture and ``TORCH_TRACE`` files) come through :func:`build`.
First every compile's facts are built from its own events (``symdebug.model`` builders);
then the passes of :data:`~symdebug.processors.pass_table.PASSES` run in their checked
order.  A pass changes nothing: it returns what it writes
(:class:`~symdebug.processors.writes.Writes`), and :func:`enrich`, the one runner, applies
it before the next pass reads, refusing a field the pass does not declare it writes.  Facts
read from an older document get the passes it lacks through the same runner
(:func:`upgrade`).

Set ``SYMDEBUG_STRICT=1`` to make a compile that cannot be built raise instead of being
counted as a ``bad_event`` problem (the test suite runs strict).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from symdebug._torch.releases.sections import Release
from symdebug.builders.compile_builder import build_compile
from symdebug.builders.compile_events import group_by_compile
from symdebug.builders.compile_group import CompileEvents
from symdebug.builders.graph_breaks_builder import build_graph_breaks
from symdebug.builders.guards_builder import build_guards
from symdebug.builders.kernels_builder import build_kernels
from symdebug.builders.specializations_builder import build_specializations
from symdebug.builders.symbols_builder import build_symbols
from symdebug.builders.torch_release import VERSION_ARTIFACT, stream_release, torch_run
from symdebug.events import Event, EventStream
from symdebug.model.serialize import stale_fixes, stale_names
from symdebug.model.types import Facts
from symdebug.processors.cells import cell_names
from symdebug.processors.pass_table import (
    CHANGES,
    EXPLAINING,
    FIXES,
    NAMING_GUARDS,
    NAMING_SYMBOLS,
    PASSES,
    Pass,
    passes,
)
from symdebug.processors.writes import Writes
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
        VERSION_ARTIFACT,
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


def stream_facts(stream: EventStream, *, capture_errors: int = 0) -> tuple[Facts, Release]:
    """Facts holding what the stream says as a whole (no compile yet), and its release."""
    choice = stream_release(stream)
    facts = Facts(source=stream.source, capture_errors=capture_errors, torch=torch_run(choice))
    facts.problems = stream.problem_counts()
    facts.problem_examples = [
        f"{p.kind} at {p.where}: {p.detail}" for p in stream.problems[:MAX_PROBLEM_EXAMPLES]
    ]
    return facts, choice.release


def facts_of_compiles(stream: EventStream, *, capture_errors: int = 0) -> Facts:
    """The facts each compile's own events say, before any pass ran."""
    facts, release = stream_facts(stream, capture_errors=capture_errors)
    reader = StackReader(stream.strings)
    for group in group_by_compile(stream.events, release):
        build_or_count(facts, group, reader)
    facts.rank = next((c.rank for c in facts.compiles if c.rank is not None), None)
    return facts


def enrich(facts: Facts, passes: Iterable[Pass] = PASSES) -> Facts:
    """Run the passes in order, each one's writes applied before the next; return the facts.

    The one place that changes the facts after they were built.  A pass that fails on a
    value it did not expect, or writes a field it does not declare, costs what it would have
    added (counted as ``bad_pass``), never the facts already built; strict mode raises.
    """
    for step in passes:
        writes = _run_or_count(step, facts)
        if writes is not None:
            writes.apply()
    return facts


def _run_or_count(step: Pass, facts: Facts) -> Writes | None:
    """What the pass writes, checked against what it declares; None if it failed."""
    try:
        writes = _declared(step, step.run(facts))
    except Exception as error:
        if strict_mode():
            raise
        _count_problem(facts, "bad_pass", f"in pass {step.name!r}: {error!r}")
        return None
    return writes


def _declared(step: Pass, writes: Writes) -> Writes:
    """The writes, if the pass declares every field they set; else ``ValueError``."""
    undeclared = writes.fields() - step.fields_written
    if undeclared:
        raise ValueError(f"it writes {sorted(undeclared)}, which it does not declare")
    return writes


def upgrade(facts: Facts) -> Facts:
    """Facts read from a document, completed as a build completes them today.

    Parameters
    ----------
    facts
        Facts as a document (of any supported version) held them.

    Returns
    -------
    Facts
        The same facts, the passes whose facts an older document lacks run again.
    """
    return enrich(facts, stale_passes(facts))


def stale_passes(facts: Facts) -> list[Pass]:
    """The passes to run again on facts read from a document, in the pipeline's order."""
    renamed = stale_names(facts)  # v6 and older: no symbol in the user's names
    wanted = []
    if renamed or not any(s.user_names for s in facts.symbols):
        wanted.append(NAMING_SYMBOLS)
    if not any(g.user_expr for g in facts.guards) and not any(
        r.user_names for r in facts.recompiles
    ):  # written before guards and recompiles had the user's names
        wanted.append(NAMING_GUARDS)
    if stale_fixes(facts):  # v4 and older: fixes were text, suggest them again
        wanted += [FIXES, EXPLAINING]
    elif renamed or (not facts.explanations and facts.symbols):  # older explanations
        wanted.append(EXPLAINING)
    if not facts.changes and any(r.fixes for r in facts.recompiles):  # v12 and older
        wanted.append(CHANGES)
    return [step for step in PASSES if step in wanted]


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
        return enrich(facts, passes(cell_names(stream)))

"""The pass table: each pass, the fields it reads and writes, in an order checked at import.

A pass is a function of the facts that returns what it writes (:class:`Writes`) and changes
nothing.  Each declares the facts it reads and writes as ``"<fact list>.<field>"`` (a real
field: a typo fails at import) or a whole list (``"recompiles"``), and :func:`check_order`
proves that no pass reads what a later one writes, so the order is a checked fact rather
than a convention.  :func:`symdebug.pipeline.enrich` runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from symdebug.model.types import Facts
from symdebug.processors.causes import classify_guards, classify_specializations
from symdebug.processors.cells import CellNames, alias_files
from symdebug.processors.changes import collect_changes
from symdebug.processors.explanations import explain_sources
from symdebug.processors.export_fixes import suggest_export_fixes
from symdebug.processors.failures import settle_failed_breaks
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.graph_break_steps import explain_graph_breaks
from symdebug.processors.graph_breaks import link_graph_breaks
from symdebug.processors.guard_names import name_guards
from symdebug.processors.kernel_audit import explain_specialized_dims
from symdebug.processors.links import link_fx_nodes, link_kernels
from symdebug.processors.mark_lines import link_marked_dims, link_marks
from symdebug.processors.recompiles import link_recompiles, name_compiles
from symdebug.processors.symbols import attach_guard_sources, settle_symbol_states
from symdebug.processors.user_names import name_symbols, rename_fix_inputs
from symdebug.processors.writes import FIELDS, Writes

#: Names a pass declares for several fields at once, which the order check reads as one fact.
GROUPS: dict[str, frozenset[str]] = {
    # How files are named (notebook cells), not which frame is which: only the
    # explanations (text people read) depend on the names.
    "file_names": frozenset(
        {
            "guards.user_stack",
            "symbols.user_frame",
            "symbols.range_locs",
            "specializations.user_frame",
            "fx_nodes.filename",
            "compiles.filename",
            "graph_breaks.user_stack",
            "graph_breaks.user_frame",
            "recompiles.user_frame",
            "recompiles.reasons",
            "compiles.caller",
            "compiles.callee",
            "compiles.recompile_reasons",
            "compiles.graphs",
            "compiles.shape_checks",
            "compiles.value_checks",
        }
    ),
    # The constants the states' pass adds to ``symbols``: no earlier pass reads them.
    "constant_symbols": frozenset({"symbols"}),
}


def _unknown(names: Iterable[str]) -> list[str]:
    """The names that are neither a field of the facts (:data:`FIELDS`) nor a group."""
    return sorted(name for name in names if name not in FIELDS and name not in GROUPS)


@dataclass(frozen=True, slots=True)
class Pass:
    """One enrichment step: what it reads and writes, as ``"<fact list>.<field>"``.

    ``run`` returns what it writes (:class:`Writes`) and changes nothing of the facts.  A name
    that is no field of the facts (a typo) raises ``ValueError`` when the pass is made.
    """

    name: str
    run: Callable[[Facts], Writes]
    reads: frozenset[str]
    writes: frozenset[str]

    def __post_init__(self) -> None:
        unknown = _unknown(self.reads | self.writes)
        if unknown:
            raise ValueError(f"pass {self.name!r} declares {unknown}: no field of the facts")

    @property
    def fields_written(self) -> frozenset[str]:
        """The fields it declares it writes, each group as its fields."""
        return frozenset(f for name in self.writes for f in GROUPS.get(name, (name,)))


_UNKNOWN_GROUPED = _unknown(field for fields in GROUPS.values() for field in fields)
if _UNKNOWN_GROUPED:
    raise ValueError(f"a group names {_UNKNOWN_GROUPED}: no field of the facts")


def _pass(name: str, run: Callable[[Facts], Writes], reads: str, writes: str) -> Pass:
    return Pass(name, run, frozenset(reads.split()), frozenset(writes.split()))


# Named: a document written before their facts existed gets them run again
# (:func:`symdebug.pipeline.upgrade`).  Each runs at its place in ENRICHING.
FIXES = _pass(
    "fixes",
    suggest_fixes,
    reads="guards.cause guards.sources specializations.cause recompiles.cause"
    " recompiles.sources symbols.state symbols.cause constant_symbols compiles.declared torch",
    writes="guards.fix specializations.fix recompiles.fix symbols.fix"
    " guards.fixes specializations.fixes recompiles.fixes symbols.fixes",
)
NAMING_SYMBOLS = _pass(
    "symbols in the user's names, a library's constants grouped",
    name_symbols,
    reads="compiles.callee compiles.filename symbols.sources symbols.state symbols.cause"
    " symbols.user_frame",
    writes="symbols.user_names symbols.expected compiles.expected_constants",
)
NAMING_GUARDS = _pass(
    "guards and recompiles' inputs in the user's names",
    name_guards,
    reads="compiles.callee guards.expr guards.symbols guards.sources recompiles.sources",
    writes="guards.user_expr recompiles.user_names",
)
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
        " guards.instruction guards.phase guards.aot_graph guards.expr guards.sources torch",
        writes="guards.fx_node guards.fx_node_target guards.fx_node_inferred guards.line_nodes",
    ),
    _pass(
        "guard causes",
        classify_guards,
        reads="guards.phase guards.framework_stack guards.fx_node guards.fx_node_inferred"
        " guards.fx_node_target"
        " guards.instruction guards.aot_graph guards.user_stack guards.expr guards.sources torch",
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
        "lines that marked dims",
        link_marked_dims,
        reads="marks specializations.cause specializations.value",
        writes="specializations.user_frame",
    ),
    _pass(
        "names of the compiles refused at the recompile limit",
        name_compiles,
        reads="compiles.name compiles.frame_id compiles.generation compiles.filename"
        " compiles.lineno",
        writes="compiles.name compiles.filename compiles.lineno",
    ),
    _pass(
        "recompiles",
        link_recompiles,
        reads="compiles.recompile_reasons specializations.cause guards.cause guards.sources"
        " guards.status guards.user_stack guards.framework_stack symbols.hint compiles.caller"
        " compiles.callee compiles.filename compiles.inputs compiles.marked_dynamic"
        " specializations.user_frame guards.inductor_node fx_nodes torch",
        writes="recompiles",
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
    FIXES,
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
    NAMING_SYMBOLS,
    NAMING_GUARDS,
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

#: Last: the distinct changes, from the recompiles' fixes and lines as finally named.
CHANGES = _pass(
    "changes",
    collect_changes,
    reads="recompiles.fixes recompiles.cause recompiles.user_frame file_names",
    writes="changes",
)


def renaming(names: CellNames) -> Pass:
    """Notebook cells as ``Cell [N]``: after every pass that matches torch's own file names.

    It changes how files are named, not which frame is which: it writes ``file_names``,
    which only the explanations (text people read) depend on.
    """
    return _pass("cell names", partial(alias_files, names=names), "", "file_names")


def passes(names: CellNames | None = None) -> tuple[Pass, ...]:
    """Every pass, in order, for a stream with these cell names (none: no cell names)."""
    named = (renaming(names),) if names else ()
    return (*ENRICHING, *named, EXPLAINING, BREAK_STEPS, CHANGES)


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


# every pass, cell names too
check_order(passes(CellNames({"<a notebook cell's file>": "Cell [1]"})))


def written_lists(steps: Iterable[Pass]) -> frozenset[str]:
    """The lists of the facts whose items some of ``steps`` set a field of."""
    return frozenset(
        name.partition(".")[0] for step in steps for name in step.fields_written if "." in name
    )

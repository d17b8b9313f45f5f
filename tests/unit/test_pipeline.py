"""Each pipeline pass on tiny hand-built facts (no torch), and the pass order itself."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from symdebug.events import CompileKey, Event, EventStream
from symdebug.model.code_types import FxNode, GraphCode, Kernel, SpecializedDim
from symdebug.model.types import (
    Callee,
    Compile,
    Facts,
    Frame,
    GraphBreak,
    Guard,
    Specialization,
    Symbol,
)
from symdebug.pipeline import build, enrich, facts_of_compiles, stale_passes, upgrade
from symdebug.processors.causes import classify_guards, classify_specializations
from symdebug.processors.cells import CellNames
from symdebug.processors.explanations import explain_sources
from symdebug.processors.fixes import suggest_fixes
from symdebug.processors.kernel_audit import explain_specialized_dims
from symdebug.processors.links import link_fx_nodes, link_kernels
from symdebug.processors.pass_table import (
    EXPLAINING,
    FIXES,
    NAMING_GUARDS,
    NAMING_SYMBOLS,
    PASSES,
    Pass,
    check_order,
    passes,
)
from symdebug.processors.recompiles import link_recompiles
from symdebug.processors.symbols import attach_guard_sources, settle_symbol_states
from symdebug.processors.writes import Writes
from symdebug.torchtext.source_text import sources_read
from symdebug.tracefile.reader import read_trace_file

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = sorted(p for p in DATA.rglob("*") if p.name.endswith((".log", ".log.gz")))

USER = Frame("/src/model.py", 7, "forward", "y = x.view(x.shape[0] // 2, -1)")
BRANCH = Frame("/src/model.py", 9, "forward", "if x.shape[0] > 4:")
EVALUATE = Frame("/torch/_dynamo/variables/tensor.py", 2606, "evaluate_expr")
VIEW_META = Frame("/torch/_refs/__init__.py", 3900, "_reshape_view_helper")
INDUCTOR = Frame("/torch/_inductor/kernel/conv.py", 497, "conv_layout")


def _noop(facts: Facts) -> Writes:
    del facts
    return Writes()


def _facts() -> Facts:
    """One compile of ``forward`` with a symbol for ``x``'s batch and two guards."""
    facts = Facts(compiles=[Compile("0/0", 0, 0, name="forward", dynamic=True)])
    facts.symbols = [Symbol("s0", ["L['x'].size()[0]"], "0/0", hint=8)]
    facts.guards = [
        Guard(
            "0/0#0",
            "Eq(Mod(s0, 2), 0)",
            "0/0",
            user_stack=[USER],
            framework_stack=[VIEW_META],
            phase="dynamo",
            symbols=["s0"],
        ),
        Guard(
            "0/0#1",
            "s0 > 4",
            "0/0",
            user_stack=[BRANCH],
            framework_stack=[EVALUATE],
            phase="dynamo",
            symbols=["s0"],
        ),
    ]
    facts.fx_nodes = [
        FxNode("0/0", "view", "call", "view", ["s0//2", "2"], ["s0"], USER.filename, USER.lineno)
    ]
    return facts


def test_declared_order_holds_and_a_wrong_order_is_refused() -> None:
    check_order(PASSES)
    reader = Pass("reader", _noop, frozenset({"guards.cause"}), frozenset())
    writer = Pass("writer", _noop, frozenset(), frozenset({"guards.cause"}))
    check_order([writer, reader])
    with pytest.raises(ValueError, match="reader"):
        check_order([reader, writer])


def test_fx_nodes_are_inferred_before_causes_and_skip_branches() -> None:
    facts = _facts()
    attach_guard_sources(facts).apply()
    assert facts.guards[0].sources == ["L['x'].size()[0]"]
    link_fx_nodes(facts).apply()
    view, branch = facts.guards
    assert (view.fx_node, view.fx_node_target, view.fx_node_inferred) == ("view", "view", True)
    assert branch.fx_node is None  # a branch makes no node
    classify_guards(facts).apply()
    assert (view.cause, branch.cause) == ("op_requirement", "user_branch")


def test_guard_causes_from_the_compiler_phase() -> None:
    facts = Facts()
    facts.guards = [
        Guard("0/0#0", "Eq(s1, 4)", "0/0", framework_stack=[INDUCTOR], phase="inductor"),
        Guard("0/0#1", "Eq(s1, 4)", "0/0", phase="aot", aot_graph="0_backward"),
        Guard(
            "0/0#2",
            "Eq(s2, 3)",
            "0/0",
            phase="dynamo",
            framework_stack=[Frame("/torch/fx/experimental/sym_node.py", 1, "specialize_symnode")],
        ),
        Guard("0/0#3", "Eq(s3, 3)", "0/0", phase="dynamo"),
    ]
    classify_guards(facts).apply()
    assert [g.cause for g in facts.guards] == ["inductor", "backward", "int_specialized", "unknown"]


def test_specialization_causes() -> None:
    facts = Facts(
        compiles=[Compile("0/0", 0, 0, dynamic=False), Compile("0/1", 0, 1, dynamic=False)]
    )
    facts.specializations = [
        Specialization("L['x'].size()[0]", 8, "0/0"),
        Specialization("L['x'].size()[0]", 1, "0/1"),
        Specialization("L['n']", 3, "0/0", kind="int"),
    ]
    classify_specializations(facts).apply()
    assert [s.cause for s in facts.specializations] == [
        "static_by_default",
        "zero_one",
        "static_by_default",
    ]


def test_recompile_links_the_failed_specialization_and_its_source() -> None:
    facts = Facts(compiles=[Compile("0/0", 0, 0, dynamic=False), Compile("0/1", 0, 1)])
    facts.compiles[1].recompile_reasons = [
        "0/0: tensor 'x' size mismatch at index 0. expected 8, actual 6"
    ]
    facts.specializations = [
        Specialization("L['x'].size()[0]", 8, "0/0", cause="static_by_default")
    ]
    facts.symbols = [Symbol("s0", ["L['x'].size()[0]"], "0/1", hint=6)]
    link_recompiles(facts).apply()
    (recompile,) = facts.recompiles
    assert (recompile.failed_entry, recompile.cause) == ("0/0", "static_by_default")
    assert recompile.specialization is facts.specializations[0]
    assert recompile.sources == ["L['x'].size()[0]"]


def test_recompile_after_reset_names_entries_of_its_generation() -> None:
    facts = Facts(
        compiles=[Compile("0/0@1", 0, 0, generation=1), Compile("0/1@1", 0, 1, generation=1)]
    )
    facts.compiles[1].recompile_reasons = ["0/0: L['n'] == 2"]
    link_recompiles(facts).apply()
    assert facts.recompiles[0].failed_entry == "0/0@1"


def test_states_fixes_and_explanations() -> None:
    facts = _facts()
    facts.specializations = [
        Specialization("L['x'].size()[1]", 4, "0/0", cause="static_by_default")
    ]
    settle_symbol_states(facts).apply()
    constant = facts.symbols[-1]
    assert (constant.sources, constant.state, constant.hint) == (
        ["L['x'].size()[1]"],
        "static-by-default",
        4,
    )
    for step in (
        attach_guard_sources,
        link_fx_nodes,
        classify_guards,
        suggest_fixes,
        explain_sources,
    ):
        step(facts).apply()
    assert "mark_dynamic(x, 1)" in (constant.fix or "")
    by_source = {e.source: e for e in facts.explanations}
    dim1 = by_source["L['x'].size()[1]"]
    assert (dim1.state, dim1.value) == ("static-by-default", 4)
    assert dim1.fixes == constant.fixes and str(dim1.fixes[0]) == constant.fix
    assert dim1.fixes[0].code == "torch._dynamo.maybe_mark_dynamic(x, 1)"
    assert [s.kind for s in dim1.steps] == ["state", "fix", "fix"]
    dim0 = by_source["L['x'].size()[0]"]
    assert dim0.state == "dynamic" and not dim0.fixes
    assert [s.kind for s in dim0.steps][:4] == ["state", "guard", "node", "line"]
    assert dim0.steps[1].guard == "0/0#0" and dim0.steps[3].frame == USER


def test_kernels_and_baked_in_dims() -> None:
    facts = Facts()
    facts.guards = [
        Guard(
            "0/0#0",
            "Eq(s15, 4)",
            "0/0",
            cause="inductor",
            phase="inductor",
            framework_stack=[INDUCTOR],
            inductor_node="conv2d",
        )
    ]
    facts.kernels = [Kernel("0/0", "cpp_fused_0", "0_forward", "cpp", nodes=["conv2d"])]
    built = SpecializedDim("L['w'].size()[0]", "s15", 4, "L_w_")
    facts.graph_code = [GraphCode("0/0", "0_forward", specialized_dims=[built])]
    link_kernels(facts).apply()
    explain_specialized_dims(facts).apply()
    assert facts.guards[0].kernel == "cpp_fused_0"
    (dim,) = facts.graph_code[0].specialized_dims
    assert built.guard is None  # the pass made a new dim: the one built is as built
    assert (dim.guard, dim.cause) == ("0/0#0", "inductor")
    assert "conv.py:497" in dim.explanation


def _bad_stream() -> EventStream:
    key = CompileKey(0, 0)
    events = [
        Event("dynamo_start", {"stack": []}, key),
        Event("guard_added_fast", {"expr": "s0 > 4", "stack": "not a list", "user_stack": 5}, key),
        Event("compilation_metrics", {"co_name": "f", "co_firstlineno": "not a number"}, key),
    ]
    return EventStream(events=events, source="hand-built")


def test_strict_mode_raises_and_lenient_mode_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")
    facts = build(_bad_stream())
    assert facts.problems == {"bad_event": 1} and not facts.compiles
    assert "compile 0/0" in facts.problem_examples[0]
    monkeypatch.setenv("SYMDEBUG_STRICT", "1")
    with pytest.raises(ValueError, match="not a number"):
        build(_bad_stream())


def test_an_equality_pins_a_size_before_a_bound_does() -> None:
    from symdebug.builders.specializations_builder import forcing_guards

    bound = Guard("0/4#0", "s27 <= 8", "0/4", symbols=["s27"])
    pin = Guard("0/4#1", "Eq(s27 - 1, 4)", "0/4", symbols=["s27"])
    other = Guard("0/4#2", "Eq(s27, s3)", "0/4", symbols=["s27", "s3"])
    assert forcing_guards([bound, other, pin], "s27", 5) == [pin, bound, other]
    exact = Guard("0/4#3", "Eq(s27, 5)", "0/4", symbols=["s27"])
    assert forcing_guards([bound, pin, exact], "s27", 5) == [exact]


def test_a_failing_pass_costs_its_facts_only_unless_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(facts: Facts) -> Writes:
        raise TypeError("argument of type 'float' is not iterable")

    def counted(facts: Facts) -> Writes:
        return Writes().put(facts, "capture_errors", facts.capture_errors + 1)

    steps = [Pass("broken", broken, frozenset(), frozenset())]
    steps.append(Pass("after", counted, frozenset(), frozenset({"capture_errors"})))
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")
    facts = enrich(Facts(), steps)
    assert facts.problems == {"bad_pass": 1} and facts.capture_errors == 1
    assert "in pass 'broken'" in facts.problem_examples[0]
    monkeypatch.setenv("SYMDEBUG_STRICT", "1")
    with pytest.raises(TypeError):
        enrich(Facts(), steps)


def test_a_field_no_fact_has_is_refused_when_the_pass_is_made() -> None:
    with pytest.raises(ValueError, match=r"guards\.casue"):
        Pass("typo", _noop, frozenset({"guards.casue"}), frozenset())
    with pytest.raises(ValueError, match="gaurds"):
        Pass("typo", _noop, frozenset(), frozenset({"gaurds.cause"}))
    with pytest.raises(ValueError, match=r"guards\.user_frame"):  # a property, not a field
        Pass("property", _noop, frozenset({"guards.user_frame"}), frozenset())
    Pass("real", _noop, frozenset({"guards.cause", "recompiles", "file_names"}), frozenset())


def test_a_write_the_pass_does_not_declare_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def sneaky(facts: Facts) -> Writes:
        return Writes().set("cause", facts.guards, ["user_branch"] * len(facts.guards))

    steps = [Pass("sneaky", sneaky, frozenset(), frozenset({"guards.fix"}))]
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")
    facts = enrich(_facts(), steps)
    assert facts.problems == {"bad_pass": 1} and {g.cause for g in facts.guards} == {"unknown"}
    assert "guards.cause" in facts.problem_examples[0]
    monkeypatch.setenv("SYMDEBUG_STRICT", "1")
    with pytest.raises(ValueError, match="does not declare"):
        enrich(_facts(), steps)


def _wrapped_and_broken() -> Facts:
    """A wrapper's compile (the user's ``x`` is ``args[0]``): a size made static, a break."""
    callee = Callee("M.forward", "/w/m.py", 3, {"L['args'][0]": "x"})
    line = Frame("/w/m.py", 4, "forward", 'print("halfway")')
    return Facts(
        compiles=[
            Compile("0/0", 0, 0, name="inner", filename="/w/m.py", dynamic=False, callee=callee)
        ],
        specializations=[Specialization("L['args'][0].size()[0]", 8, "0/0")],
        graph_breaks=[
            GraphBreak(
                "0/0",
                "Failed to trace builtin operator",
                "  Explanation: Dynamo does not know how to trace builtin operator `print`",
                user_frame=line,
                user_stack=[line],
            )
        ],
    )


def _log_facts(log: Path) -> Facts:
    return facts_of_compiles(read_trace_file(log))


def _run_unchanged(facts: Facts) -> Facts:
    """Every pass (cell names too) on ``facts``; each must leave what it read as it was."""
    cell = next((c.filename for c in facts.compiles if c.filename), "/w/m.py")
    with sources_read(False):
        for step in passes(CellNames({cell: "Cell [1]"})):
            before = copy.deepcopy(facts)
            writes = step.run(facts)
            assert facts == before, f"pass {step.name!r} changed the facts it was given"
            writes.apply()
    return facts


@pytest.mark.parametrize("log", LOGS, ids=lambda log: str(log.relative_to(DATA)))
def test_no_pass_changes_the_facts_of_a_log(log: Path) -> None:
    _run_unchanged(_log_facts(log))


def test_no_pass_changes_a_wrappers_facts_or_a_breaks() -> None:
    facts = _run_unchanged(_wrapped_and_broken())
    (spec,) = facts.specializations
    assert spec.fix is not None and "(x, 0)" in spec.fix  # the fixes were renamed
    assert facts.graph_breaks[0].fixes  # the break was linked
    assert facts.compiles[0].filename == "Cell [1]"  # and the cell named


def test_an_old_document_gets_the_passes_it_lacks_through_the_runner() -> None:
    facts = _facts()
    for step in (attach_guard_sources, classify_guards):
        step(facts).apply()
    facts.guards[0].fix = "torch._dynamo.mark_dynamic(x, 0)"  # v4 and older: fixes were text
    wanted = [FIXES, NAMING_SYMBOLS, NAMING_GUARDS, EXPLAINING]
    assert stale_passes(facts) == wanted  # in the pipeline's order
    upgraded = upgrade(facts)
    assert upgraded is facts and facts.guards[0].fixes and facts.explanations
    assert facts.guards[1].user_expr == "x.shape[0] > 4"
    assert stale_passes(facts) == []  # as a new document: nothing to run again

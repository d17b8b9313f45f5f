"""Graph breaks on hand-built events and facts (no torch): the builder that reads torch's
reason text, the pass that links resume frames and lost dynamism, and the why steps."""

from __future__ import annotations

from symdebug.builders.compile_events import group_by_compile
from symdebug.builders.graph_breaks_builder import build_graph_breaks
from symdebug.events import CompileKey, Event
from symdebug.model.serialize import facts_from_dict, facts_to_dict
from symdebug.model.types import Compile, Facts, Frame, GraphBreak, InputDim, Symbol
from symdebug.processors.explanations import explain_sources
from symdebug.processors.failures import settle_failed_breaks
from symdebug.processors.graph_break_steps import explain_graph_breaks
from symdebug.processors.graph_breaks import link_graph_breaks, resume_name
from symdebug.processors.pass_table import BREAK_STEPS, CHANGES, PASSES, check_order
from symdebug.processors.symbols import settle_symbol_states
from symdebug.torchtext.frames import traceback_frames

PAYLOAD = """Graph break in user code at /src/enc.py:13
Graph Break Reason: Encountered graph break when attempting to trace CALL: a call:

Failed to trace builtin operator
  Explanation: Dynamo does not know how to trace builtin operator `print`
  Hint: Avoid calling builtin `print`.

  Developer debug context: builtin print

 For more details about this graph break, please visit: https://example/gb0059.html

User code traceback:
  File "/src/run.py", line 3, in <module>
    enc(x)
  File "/venv/torch/nn/modules/module.py", line 1789, in _call_impl
    return forward_call(*args, **kwargs)
  File "/src/enc.py", line 13, in forward
    print("halfway")

Traceback (most recent call last):
  File "/venv/torch/_dynamo/symbolic_convert.py", line 4520, in CALL
    self._call(inst)
  File "/venv/torch/_dynamo/exc.py", line 727, in unimplemented
    raise Unsupported(msg, gb_type, skip_frame)
"""


def _event(name: str, attempt: int, payload: str = "", **body: object) -> Event:
    return Event(name, dict(body), CompileKey(0, 0, attempt), payload=payload)


def test_the_reason_survives_the_restart_and_reads_as_a_break() -> None:
    events = [
        _event("dynamo_start", 0),
        _event("artifact:dynamo_graph_break_reason", 0, PAYLOAD),
        _event("dynamo_start", 1),
        _event("compilation_metrics", 1, restart_reasons=["Failed to trace builtin operator"]),
    ]
    (group,) = group_by_compile(events)
    (brk,) = build_graph_breaks(group)
    assert (brk.compile_id, brk.reason, brk.where) == (
        "0/0",
        "Failed to trace builtin operator",
        "/src/enc.py:13",
    )
    assert brk.explanation.startswith("  Explanation: Dynamo does not know")
    assert "debug context" not in brk.explanation and "gb0059" not in brk.explanation
    assert [f.filename for f in brk.user_stack] == [  # torch's traceback, as torch logged it
        "/src/run.py",
        "/venv/torch/nn/modules/module.py",
        "/src/enc.py",
    ]
    assert brk.library_frame is None  # the innermost frame is the user's own
    assert brk.user_frame == Frame("/src/enc.py", 13, "forward", 'print("halfway")')
    assert brk.framework_frame is not None and brk.framework_frame.name == "CALL"
    assert not brk.skipped


def test_a_frame_torch_skipped_without_a_reason_event_keeps_its_metrics_line() -> None:
    metrics = {
        "fail_type": "Unsupported",
        "fail_reason": "Data-dependent branching\n  more",
        "fail_user_frame_filename": "/src/f.py",
        "fail_user_frame_lineno": 4,
    }
    (group,) = group_by_compile([_event("compilation_metrics", 0, **metrics)])
    (brk,) = build_graph_breaks(group)
    assert brk.skipped and brk.reason == "Data-dependent branching" and brk.where == "/src/f.py:4"


def test_traceback_frames_without_source_lines() -> None:
    text = '  File "/a.py", line 1, in f\n  File "/b.py", line 2, in g\n    y = 1\n'
    assert traceback_frames(text) == [Frame("/a.py", 1, "f"), Frame("/b.py", 2, "g", "y = 1")]


def _broken_facts() -> Facts:
    """``forward`` marked dynamic in x, broken at line 13; its resume frame got h = 5 static."""
    user = Frame("/src/enc.py", 13, "forward", 'print("halfway")')
    resume = resume_name("forward", 13)
    return Facts(
        compiles=[
            Compile(
                "0/0",
                0,
                0,
                name="forward",
                filename="/src/enc.py",
                inputs=[InputDim("L['x'].size()[1]", "s0", True)],
                marked_dynamic=["L['x']"],
            ),
            Compile(
                "1/0",
                1,
                0,
                name=resume,
                filename="/src/enc.py",
                inputs=[
                    InputDim("L['h'].size()[0]", 2, False),
                    InputDim("L['h'].size()[1]", 5, False),
                ],
            ),
        ],
        symbols=[
            Symbol("s0", ["L['x'].size()[1]"], "0/0", hint=5),
            Symbol("5", ["L['h'].size()[1]"], "1/0", hint=5, state="static-by-default"),
        ],
        graph_breaks=[
            GraphBreak(
                "0/0",
                "Failed to trace builtin operator",
                "  Explanation: builtin operator `print`",
                user_frame=user,
                user_stack=[user],
            )
        ],
    )


def test_resume_frames_and_lost_dynamism_are_linked() -> None:
    facts = _broken_facts()
    link_graph_breaks(facts).apply()
    (brk,) = facts.graph_breaks
    assert brk.resume_frames == ["torch_dynamo_resume_in_forward_at_13"]
    assert brk.resume_compiles == ["1/0"]
    (lost,) = brk.lost
    assert (lost.source, lost.symbol, lost.value, lost.marked) == (
        "L['x'].size()[1]",
        "s0",
        5,
        True,
    )
    assert (lost.resume_compile, lost.resume_sources) == ("1/0", ["L['h'].size()[1]"])
    codes = [f.code for f in brk.fixes]
    assert codes == [
        "torch._dynamo.config.reorderable_logging_functions.add(print)",
        "torch.compiler.config.dynamic_sources = \"L['h']:1\"",
    ]
    assert brk.fixes[1].settings == {"torch.compiler.config.dynamic_sources": "L['h']:1"}


def test_a_skipped_frame_has_no_resume_frame_and_a_stack_slot_is_never_named() -> None:
    facts = _broken_facts()
    facts.graph_breaks[0].skipped = True
    link_graph_breaks(facts).apply()
    assert not facts.graph_breaks[0].resume_frames and not facts.graph_breaks[0].lost
    facts = _broken_facts()
    facts.compiles[1].inputs = [InputDim("L['___stack0'].size()[1]", 5, False)]
    link_graph_breaks(facts).apply()
    (fix,) = [f for f in facts.graph_breaks[0].fixes if f.kind == "setting"]
    assert "___" not in fix.code and fix.settings == {
        "torch._dynamo.config.assume_static_by_default": False
    }


def test_why_of_the_resume_input_names_the_break() -> None:
    facts = _broken_facts()
    link_graph_breaks(facts).apply()
    settle_symbol_states(facts).apply()
    explain_sources(facts).apply()
    explain_graph_breaks(facts).apply()
    (h,) = [e for e in facts.explanations if e.source == "L['h'].size()[1]"]
    texts = [s.text for s in h.steps]
    assert any(
        t.startswith("graph break at /src/enc.py:13 (Failed to trace builtin operator)")
        for t in texts
    )
    assert any("dynamic_sources" in f.code for f in h.fixes)


def test_the_passes_are_in_order_and_the_document_keeps_breaks() -> None:
    check_order(PASSES)
    assert PASSES[-2:] == (BREAK_STEPS, CHANGES)  # the changes read the final names
    facts = _broken_facts()
    link_graph_breaks(facts).apply()
    assert facts_from_dict(facts_to_dict(facts)).graph_breaks == facts.graph_breaks
    older = facts_to_dict(facts)
    older.update(schema_version=5)
    del older["graph_breaks"]
    assert facts_from_dict(older).graph_breaks == []


def _failed(cid: str) -> Compile:
    frame, number = (int(part) for part in cid.split("/"))
    return Compile(cid, frame, number, status="failed", fail_type="Unsupported")


def test_a_failure_torch_compiled_again_after_raised_and_skipped_nothing() -> None:
    compiles = [_failed("0/0"), _failed("0/1"), _failed("1/0")]
    breaks = [GraphBreak(c.compile_id, "Failed to trace builtin operator") for c in compiles]
    for graph_break in breaks:
        graph_break.skipped = True  # as the builder reads a failure without a skip reason
    facts = Facts(compiles=compiles, graph_breaks=breaks)
    settle_failed_breaks(facts).apply()
    # frame 0 compiled again after 0/0 failed: fullgraph=True, both raised; frame 1 is unknown
    assert [(b.skipped, b.failed) for b in breaks] == [(False, True), (False, True), (True, False)]


def test_a_size_two_resume_inputs_hold_is_not_said_lost() -> None:
    """By value alone, a batch of 5 and a layer of width 5 cannot be told apart."""
    facts = _broken_facts()
    resume = facts.compiles[1]
    resume.inputs.append(InputDim("L['h'].size()[2]", 5, False))
    link_graph_breaks(facts).apply()
    assert facts.graph_breaks[0].lost == []
    facts = _broken_facts()
    facts.compiles[1].inputs.append(InputDim("L['w'].size()[0]", "s1", True))
    facts.symbols.append(Symbol("s1", ["L['w'].size()[0]"], "1/0", hint=5))
    # A symbol of the resume compile holds 5: it may carry the size.
    link_graph_breaks(facts).apply()
    assert facts.graph_breaks[0].lost == []


def test_a_resume_frame_that_breaks_at_the_same_line_is_its_own_breaks_resume() -> None:
    """Torch names both resume frames ``..._in_f_at_10``: each belongs to the newest maker."""
    name = resume_name("f", 10)
    user = Frame("/src/f.py", 10, "f", "y = x.numpy()")

    def compile_(frame: int, function: str) -> Compile:
        return Compile(f"{frame}/0", frame, 0, name=function, filename="/src/f.py")

    facts = Facts(
        compiles=[compile_(0, "f"), compile_(1, name), compile_(2, name)],
        graph_breaks=[
            GraphBreak(cid, "numpy", user_frame=user, user_stack=[user]) for cid in ("0/0", "1/0")
        ],
    )
    link_graph_breaks(facts).apply()
    assert [b.resume_compiles for b in facts.graph_breaks] == [["1/0"], ["2/0"]]

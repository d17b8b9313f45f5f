"""Graph breaks as facts: reason, user line, resume frame, lost dynamism, skipped frames.

One program (tests/data/programs/graph_breaks.py), captured live and written to a
TORCH_TRACE log by a fresh process: both give the same breaks.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
import torch
from programs import PROGRAMS, break_at, captured, marked_line, program, traced

import symdebug
from symdebug.model.serialize import json_schema
from symdebug.model.types import GraphBreak

PROGRAM = PROGRAMS / "graph_breaks.py"


def _line(marker: str) -> int:
    """The line of the program that holds ``marker`` (its comment)."""
    return marked_line("graph_breaks", marker)


def _workload() -> object:
    return program("graph_breaks").workload


@pytest.fixture
def live() -> symdebug.Session:
    return captured("graph_breaks")


@pytest.fixture(scope="module")
def from_trace(tmp_path_factory: pytest.TempPathFactory) -> symdebug.Session:
    return traced("graph_breaks", tmp_path_factory.mktemp("graph_breaks"))


def _at(session: symdebug.Session, marker: str) -> GraphBreak:
    return break_at(session, "graph_breaks", marker)


def test_print_between_encoder_halves_loses_mark_dynamic(live: symdebug.Session) -> None:
    brk = _at(live, "BREAK: print")
    assert "print" in brk.explanation and not brk.skipped
    assert brk.user_frame is not None and brk.user_frame.filename == str(PROGRAM)
    assert brk.framework_frame is not None and "torch/_dynamo" in brk.framework_frame.filename
    resume = f"torch_dynamo_resume_in_forward_at_{_line('BREAK: print')}"
    assert brk.resume_frames == [resume] and len(brk.resume_compiles) == 2  # 5, then 7
    (lost,) = brk.lost
    assert (lost.source, lost.marked, lost.value) == ("L['x'].size()[1]", True, 5)
    assert lost.resume_sources == ["L['h'].size()[1]"]
    assert lost.resume_compile == brk.resume_compiles[0]
    assert {f.code for f in brk.fixes} >= {
        "torch._dynamo.config.reorderable_logging_functions.add(print)",
        "torch.compiler.config.dynamic_sources = \"L['h']:1\"",
    }


def test_item_and_data_dependent_branch_break(live: symdebug.Session) -> None:
    item = _at(live, "BREAK: item")
    assert "item()" in item.reason and item.resume_frames and not item.lost
    assert item.fixes[0].settings == {"torch._dynamo.config.capture_scalar_outputs": True}
    branch = _at(live, "BREAK: branch")
    assert branch.reason == "Data-dependent branching" and branch.resume_compiles
    assert branch.user_frame is not None and branch.user_frame.line.startswith("if x.sum() > 0")


def test_a_size_carried_as_an_int_is_lost(live: symdebug.Session) -> None:
    (lost,) = _at(live, "BREAK: carried").lost
    assert (lost.source, lost.resume_sources, lost.value) == ("L['x'].size()[0]", ["L['n']"], 6)


def test_frame_skipped_for_good_has_its_line(live: symdebug.Session) -> None:
    brk = _at(live, "SKIPPED: contains")
    assert brk.skipped and not brk.resume_frames
    assert brk.user_frame is not None and "3 in x" in brk.user_frame.line
    text = str(live)
    assert f"graph break at {PROGRAM}:{_line('SKIPPED: contains')}" in text
    assert "frame skipped for good" in text


def test_print_and_why_say_graph_break(live: symdebug.Session) -> None:
    text = str(live)
    assert f"graph break at {PROGRAM}:{_line('BREAK: print')}" in text
    assert "lost dynamism: L['x'].size()[1] (marked) -> L['h'].size()[1] = 5" in text
    why = str(live.why("h", 1))
    assert f"graph break at {PROGRAM}:{_line('BREAK: print')}" in why
    assert "dynamic_sources" in why


def test_document_validates_and_round_trips(live: symdebug.Session) -> None:
    document = json.loads(live.to_json())
    jsonschema.validate(document, json_schema())
    assert len(document["graph_breaks"]) == 5
    again = symdebug.Session.from_json(live.to_json())
    assert again.graph_breaks == live.graph_breaks


def test_same_breaks_from_a_trace(live: symdebug.Session, from_trace: symdebug.Session) -> None:
    def key(s: symdebug.Session) -> list[tuple[object, ...]]:
        return [
            (
                b.reason,
                b.where,
                b.skipped,
                b.resume_frames,
                len(b.resume_compiles),
                [(x.source, x.resume_sources, x.value, x.marked) for x in b.lost],
                [f.code for f in b.fixes],
            )
            for b in s.graph_breaks
        ]

    assert key(live) == key(from_trace)
    assert len(key(live)) == 5


def test_dynamic_sources_keeps_the_resume_frame_dynamic() -> None:
    """The lost-dynamism fix, measured: the resume frame compiles once for two lengths."""
    workload = _workload()
    with (
        torch.compiler.config.patch(force_disable_caches=True, dynamic_sources="L['h']:1"),
        symdebug.capture() as session,
    ):
        workload()  # type: ignore[operator]
    resume = [c for c in session.compiles if c.name.startswith("torch_dynamo_resume_in_forward")]
    assert len(resume) == 1
    assert not _at(session, "BREAK: print").lost


def traced_print(x: torch.Tensor) -> torch.Tensor:
    y = x.relu()
    print("shape", y.shape)  # under fullgraph=True: the compile raises, the frame is not skipped
    return y + 1


def test_a_fullgraph_failure_raised_and_did_not_skip_the_frame() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(traced_print, backend="eager", fullgraph=True)
        for n in (4, 6):
            with pytest.raises(torch._dynamo.exc.Unsupported):
                compiled(torch.randn(n))
        prediction = s.predict((9,), frame="traced_print")
        before = len(s.compiles)
        with pytest.raises(torch._dynamo.exc.Unsupported):
            compiled(torch.randn(9))
    assert len(s.compiles) == before + 1  # torch compiled it again: it never skipped it
    assert [(b.skipped, b.failed) for b in s.graph_breaks[:2]] == [(False, True), (False, True)]
    assert "0 frames skipped" in str(s)
    assert prediction.certain and prediction.recompiles and not prediction.runs_eager

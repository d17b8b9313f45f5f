"""Unbacked symbols and data-dependent failures, live and from a TORCH_TRACE log.

One program (tests/data/programs/unbacked.py): ``.item()`` with ``capture_scalar_outputs``,
``nonzero()`` + a branch on its size, ``mark_unbacked`` + a branch, ``repeat_interleave`` with
tensor counts, and a branch on an ``.item()`` under ``fullgraph=True`` (the compile fails).
"""

from __future__ import annotations

import ast
import json

import jsonschema
import pytest
from programs import PROGRAMS, break_at, captured, marked_line, traced

import symdebug
from symdebug.model.serialize import json_schema
from symdebug.model.types import GraphBreak, Symbol

PROGRAM = PROGRAMS / "unbacked.py"


def _line(marker: str) -> int:
    return marked_line("unbacked", marker)


@pytest.fixture(scope="module")
def live() -> symdebug.Session:
    return captured("unbacked")


@pytest.fixture(scope="module")
def from_trace(tmp_path_factory: pytest.TempPathFactory) -> symdebug.Session:
    return traced("unbacked", tmp_path_factory.mktemp("unbacked"))


@pytest.fixture(params=["live", "trace"])
def session(
    request: pytest.FixtureRequest, live: symdebug.Session, from_trace: symdebug.Session
) -> symdebug.Session:
    return live if request.param == "live" else from_trace


def _unbacked(session: symdebug.Session, marker: str) -> Symbol:
    line = _line(marker)
    found = [
        s
        for s in session.symbols
        if s.state == "unbacked" and s.user_frame is not None and s.user_frame.lineno == line
    ]
    assert len(found) == 1, [(s.name, s.user_frame) for s in session.symbols]
    return found[0]


def _break(session: symdebug.Session, marker: str) -> GraphBreak:
    return break_at(session, "unbacked", marker)


def test_item_result_is_an_unbacked_symbol(session: symdebug.Session) -> None:
    symbol = _unbacked(session, "UNBACKED: item")
    assert (symbol.name, symbol.origin, symbol.sources) == ("u0", "the result of .item()", [])
    assert symbol.user_frame is not None and "x.sum().item()" in symbol.user_frame.line
    (guard,) = [g for g in session.guards if g.compile_id == symbol.compile_id]
    assert (guard.expr, guard.status, guard.symbols) == ("u0 >= 0", "runtime-assert", ["u0"])
    assert guard.user_frame is not None and guard.user_frame.lineno == _line("ASSERT: item")
    assert guard.cause != "unknown"


def test_op_sizes_are_unbacked_symbols(session: symdebug.Session) -> None:
    nonzero = _unbacked(session, "UNBACKED: nonzero")
    assert nonzero.origin == "the size of nonzero()"
    assert nonzero.runtime_asserts == ["u0 >= 0", "u0 <= 3"]  # at most x's 3 elements
    rep = _unbacked(session, "UNBACKED: repeat_interleave")
    assert rep.origin == "the size of repeat_interleave()"


def test_nonzero_branch_is_a_data_dependent_break(session: symdebug.Session) -> None:
    brk = _break(session, "BREAK: nonzero branch")
    assert (brk.expression, brk.failed) == ("Eq(u0, 1)", False) and brk.resume_compiles
    codes = [f.code for f in brk.fixes]
    assert codes[0] == "torch.cond(idx.shape[0] == 1, true_fn, false_fn, (idx,))"
    assert "idx = x.nonzero()" in codes
    assert not any("_check" in code for code in codes)  # never the branch's condition


def test_marked_unbacked_branch(session: symdebug.Session) -> None:
    brk = _break(session, "BREAK: marked branch")
    assert brk.expression == "Eq(u0, 1)"
    symbol = next(s for s in session.symbols if s.compile_id == brk.compile_id and s.name == "u0")
    assert symbol.state == "unbacked" and symbol.sources == ["L['x'].size()[0]"]
    assert "mark_unbacked" in symbol.origin
    first = brk.fixes[0]
    assert first.code == "torch._dynamo.maybe_mark_dynamic(x, 0)"
    assert first.settings == {"torch.compiler.config.dynamic_sources": "L['x']:0"}
    why = session.why("x", 0)
    assert why.state == "unbacked" and why.cause != "unknown"
    text = str(why)
    assert f"data-dependent at {PROGRAM}:{_line('BREAK: marked branch')}" in text
    assert "torch could not decide Eq(u0, 1)" in text and "maybe_mark_dynamic(x, 0)" in text


def test_fullgraph_data_dependent_error(session: symdebug.Session) -> None:
    brk = _break(session, "ERROR: item branch")
    assert (brk.failed, brk.expression, brk.reason) == (True, "Eq(u0, 1)", "Data-dependent error")
    codes = [f.code for f in brk.fixes]
    assert codes == ["torch.cond(n == 1, true_fn, false_fn, (n,))", "n = x.sum().item()"]
    compile_ = next(c for c in session.compiles if c.compile_id == brk.compile_id)
    assert compile_.status == "failed"


def test_fixes_parse_in_user_names(session: symdebug.Session) -> None:
    for brk in session.graph_breaks:
        for fix in brk.fixes:
            ast.parse(fix.code)
            assert "Eq(" not in fix.code and "___" not in fix.code


def test_no_unknown_causes(session: symdebug.Session) -> None:
    assert all(g.cause != "unknown" for g in session.guards)
    assert all(e.cause != "unknown" for e in session.explanations)


def test_print_shows_unbacked_and_data_dependent(session: symdebug.Session) -> None:
    text = str(session)
    assert f"u0: the result of .item() at {PROGRAM}:{_line('UNBACKED: item')}" in text
    assert "runtime asserts: u0 >= 0, u0 <= 3" in text
    assert "data-dependent: torch could not decide Eq(u0, 1)" in text
    assert f"graph break at {PROGRAM}:{_line('ERROR: item branch')}" in text
    assert "the compile failed (the call raised)" in text


def test_live_and_trace_agree(live: symdebug.Session, from_trace: symdebug.Session) -> None:
    def key(s: symdebug.Session) -> list[tuple[str, str, str, list[str]]]:
        return sorted(
            (x.compile_id, x.name, x.origin, list(x.sources))
            for x in s.symbols
            if x.state == "unbacked"
        )

    def breaks(s: symdebug.Session) -> list[tuple[str, str, bool, list[str]]]:
        return [
            (b.compile_id, b.expression, b.failed, [f.code for f in b.fixes])
            for b in s.graph_breaks
        ]

    assert key(live) == key(from_trace) and len(key(live)) == 6
    assert breaks(live) == breaks(from_trace)


def test_document_validates_and_round_trips(live: symdebug.Session) -> None:
    document = json.loads(live.to_json())
    jsonschema.validate(document, json_schema())
    again = symdebug.Session.from_json(live.to_json())
    assert again.graph_breaks == live.graph_breaks and again.symbols == live.symbols

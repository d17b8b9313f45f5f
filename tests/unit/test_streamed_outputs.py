"""Big logs in bounded memory give the same answers (issue 33, item 12).

Reading a log lets go of the payloads no builder reads; the report's JSON is written a piece
at a time; redaction copies a record at a time; a loaded session shares equal frames.  Each
is checked against the whole-document way on real logs: same facts, same bytes.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import symdebug
from symdebug.events import EventStream
from symdebug.loading import trace_facts
from symdebug.model import json_text
from symdebug.model.serialize import facts_from_dict, facts_to_dict
from symdebug.model.types import Facts, Frame
from symdebug.pipeline import READ_PAYLOADS, build, without_unread_payloads
from symdebug.renderers import wire_json
from symdebug.renderers.document import pack, redacted
from symdebug.renderers.html import render_page, safe_json_bytes, write_html
from symdebug.tracefile import iter_trace_events, read_trace_file

DATA = Path(__file__).resolve().parents[1] / "data"
#: Real logs with guards, stacks, kernels and recompiles, and the small reader fixtures.
LOGS = sorted((DATA / "triton").glob("*.log.gz")) + sorted((DATA / "traces").glob("*.log"))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_facts_without_unread_payloads_are_the_facts_of_every_payload(log: Path) -> None:
    assert facts_to_dict(trace_facts(log)) == facts_to_dict(build(read_trace_file(log)))


def test_unread_payloads_are_let_go_as_events_are_read() -> None:
    log = DATA / "triton" / "inductor_cuda_h200.log.gz"
    stream = EventStream(source=str(log))
    events = list(without_unread_payloads(iter_trace_events(log, stream)))
    dropped = {e.name for e in read_trace_file(log).events if e.payload} - READ_PAYLOADS
    assert dropped  # the log has payloads no fact reads (AOT graphs, configs)
    assert all(e.payload is None for e in events if e.name in dropped)
    assert any(e.payload for e in events if e.name == "inductor_output_code")


def _whole_page(session: symdebug.Session, redact: bool) -> bytes:
    """The report as it was written before: one document, one ``dumps``, copied redaction."""
    document = facts_to_dict(session.facts)
    wire = pack(redacted(document) if redact else document, redact=redact)
    return render_page(safe_json_bytes(wire)).encode()


@pytest.mark.parametrize("redact", [False, True])
@pytest.mark.parametrize("rows", [1, 3, wire_json.ROWS_PER_PIECE])
@pytest.mark.parametrize("log", LOGS[:2], ids=lambda p: p.name)
def test_report_written_in_pieces_is_the_whole_page(
    log: Path, rows: int, redact: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire_json, "ROWS_PER_PIECE", rows)  # many pieces per table
    session = symdebug.load_trace(log)
    assert isinstance(session, symdebug.Session)
    before = facts_to_dict(session.facts)
    written = write_html(session.facts, tmp_path / "r.html", redact=redact).read_bytes()
    assert written == _whole_page(session, redact)
    assert facts_to_dict(session.facts) == before  # the facts themselves are left alone


@pytest.mark.parametrize("log", LOGS[:2], ids=lambda p: p.name)
def test_loaded_session_shares_equal_frames_and_lets_the_document_go(log: Path) -> None:
    facts = trace_facts(log)
    document = facts_to_dict(facts)
    kept = facts_from_dict(facts_to_dict(facts))
    read = facts_from_dict(document, owned=True)
    assert read == kept == facts
    assert all(guard is None for guard in document["guards"])
    frames = [frame for guard in read.guards for frame in guard.framework_stack]
    assert len({id(f) for f in frames}) == len(
        {(f.filename, f.lineno, f.name, f.line) for f in frames}
    )


def test_saved_session_loads_the_same(tmp_path: Path) -> None:
    session = symdebug.load_trace(DATA / "triton" / "inductor_cuda_h200.log.gz")
    assert isinstance(session, symdebug.Session)
    session.save(tmp_path / "s.json")
    assert symdebug.Session.load(tmp_path / "s.json").facts == session.facts


def _with_compared_guards(session: symdebug.Session) -> symdebug.Session:
    """The session plus guards that alone compare strings, in their checks and source lines.

    Only a guard says the string is compared: the guards are redacted apart from the rest,
    yet the string must go from every record (a compile's reasons quote it too).
    """
    facts = session.facts
    frame = Frame("/srv/project/SECRET_DIR/model.py", 7, "forward", "if mode == 'line-secret':")
    added = [
        dataclasses.replace(
            guard,
            id=f"{guard.id}~compared{number}",
            expr=f"L['mode'] == 'token-{number % 2}'  # at /srv/project/SECRET_DIR/model.py:7",
            user_stack=[*guard.user_stack, frame],
        )
        for number, guard in enumerate(facts.guards[:5])
    ]
    facts.guards.extend(added)
    facts.compiles[-1].recompile_reasons.append("mode saw 'token-1', not 'line-secret'")
    return session


def _whole_redacted_json(session: symdebug.Session) -> bytes:
    """The redacted save as it was written before: one document, copied redaction."""
    return json_text.dumps(redacted(facts_to_dict(session.facts)))


@pytest.mark.parametrize("log", LOGS[:2], ids=lambda p: p.name)
def test_redacted_save_written_a_guard_at_a_time_is_the_whole_document(
    log: Path, tmp_path: Path
) -> None:
    session = _with_compared_guards(symdebug.load_trace(log))  # type: ignore[arg-type]
    before = facts_to_dict(session.facts)
    session.save(tmp_path / "s.json", redact=True)
    written = (tmp_path / "s.json").read_bytes()
    assert written == _whole_redacted_json(session)
    assert b"token-1" not in written and b"line-secret" not in written  # can fail
    assert facts_to_dict(session.facts) == before


@pytest.mark.parametrize("redact", [False, True])
def test_report_of_guards_comparing_strings_is_the_whole_page(
    redact: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire_json, "ROWS_PER_PIECE", 2)
    session = _with_compared_guards(symdebug.load_trace(LOGS[0]))  # type: ignore[arg-type]
    written = write_html(session.facts, tmp_path / "r.html", redact=redact).read_bytes()
    assert written == _whole_page(session, redact)
    assert (b"line-secret" in written) is not redact


def test_report_of_a_session_without_guards_is_the_whole_page(tmp_path: Path) -> None:
    session = symdebug.Session(Facts(source="/srv/project/SECRET_DIR/empty.log"))
    for redact in (False, True):
        written = write_html(session.facts, tmp_path / "r.html", redact=redact).read_bytes()
        assert written == _whole_page(session, redact)

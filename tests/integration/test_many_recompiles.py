"""One frame recompiled again and again (issue 33, item 11): torch writes each recompile's
reasons against every earlier entry, so its log repeats them with the square of the
recompiles.  The report keeps each reason once; every view still names them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from programs import traced

import symdebug
from symdebug.renderers.console import render_summary
from symdebug.renderers.document import unpack, wire_document
from symdebug.renderers.html import safe_json_bytes


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> symdebug.Session:
    return traced("int_factors", tmp_path_factory.mktemp("int_factors"))


def test_the_log_repeats_reasons(session: symdebug.Session) -> None:
    lengths = [len(r.reasons) for r in session.recompiles]
    assert lengths == list(range(1, 8))  # each recompile lists every earlier entry


def test_the_report_holds_each_reason_once(session: symdebug.Session, tmp_path: Path) -> None:
    page = session.to_html(tmp_path / "report.html").read_bytes()
    texts = {text for r in session.recompiles for text in r.reasons}
    assert len(texts) == 7
    counts = {text: page.count(safe_json_bytes(text)) for text in texts}
    assert counts == dict.fromkeys(texts, 1)


def test_the_viewer_data_restores_every_reason(session: symdebug.Session) -> None:
    wire = json.loads(json.dumps(wire_document(session.facts)))
    document = unpack(wire)
    assert [r["reasons"] for r in document["recompiles"]] == [r.reasons for r in session.recompiles]
    assert [r["failed_entries"] for r in document["recompiles"]] == [
        r.failed_entries for r in session.recompiles
    ]
    assert [c["recompile_reasons"] for c in document["compiles"]] == [
        c.recompile_reasons for c in session.compiles
    ]


def test_why_and_the_summary_name_each_recompile_reason(session: symdebug.Session) -> None:
    said = str(session.why("factor"))
    summary = render_summary(session.facts)
    for number in range(1, 8):
        failed = f"0/{number - 1}: factor == {number - 1}"
        assert f"recompile 0/{number} (entry 0/{number - 1} failed): {failed}" in said
        assert f"recompiled because (dynamic_false): {failed}" in summary


def test_predict_answers_each_entry_and_a_new_value(session: symdebug.Session) -> None:
    for factor in range(8):
        prediction = session.predict((3,), factor, frame="scaled")
        assert prediction.entry == f"0/{factor}", prediction
    assert session.predict((3,), 8, frame="scaled").outcome == "eager"  # the recompile limit

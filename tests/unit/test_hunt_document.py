"""The hunt's rows and a code fix's diff in the document (schema v10) and the text summary:
hand-built facts (no torch) saved and loaded, packed for the viewer, redacted, and printed."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

import symdebug
from symdebug.model.hunt_types import HuntRow
from symdebug.model.serialize import (
    MIME_TYPE,
    READABLE_VERSIONS,
    SCHEMA_VERSION,
    facts_from_dict,
    facts_to_dict,
    json_schema,
)
from symdebug.model.types import Compile, Facts, Fix, Frame, Guard, Recompile
from symdebug.processors.changes import collect_changes
from symdebug.renderers.console import hunt_lines, render_summary
from symdebug.renderers.document import redacted, unpack, wire_document

X = "L['x'].size()[1]"
BRANCH = Frame("/w/prog.py", 12, "f", "if n > 4:")
DIFF = (
    "--- a/prog.py\n+++ b/prog.py\n@@ -12,2 +12,2 @@\n def f(x, n):\n"
    "-    if n > 4:\n+    if x.shape[0] > 4:\n"
)
REWRITE = Fix("x.shape[0] > 4", "code", "a size instead of an int", verified=True, diff=DIFF)
REWRITE.effect = "measured: 3 -> 1 compiles"


def hunt_rows() -> list[HuntRow]:
    """One row of each verdict, in the hunt's order (most compiles saved first)."""
    return [
        HuntRow(
            X,
            "x.shape[1]",
            "size",
            "static_by_default",
            "avoidable",
            compiles=2,
            change="torch._dynamo.maybe_mark_dynamic(x, 1)",
            before=3,
            after=1,
            outputs_equal=True,
            note="kept symbolic: no new error, equal outputs",
        ),
        HuntRow(
            "L['n']", "n", "int", "user_branch", "needed", cause="user_branch", user_frame=BRANCH
        ),
        HuntRow(
            "L['y'].size()[0]", "y.shape[0]", "size", "zero_one", "untested", note="no workload"
        ),
    ]


def hunted() -> Facts:
    """Two compiles of ``f``, a recompile on ``n`` whose fix is a verified rewrite, the hunt."""
    guard = Guard("0/0#0", "Eq(n, 3)", "0/0", cause="user_branch", user_stack=[BRANCH])
    guard.fixes = [REWRITE]
    not_tried = Fix("torch.compiler.config.dynamic_sources = \"L['n']\"", "setting")
    not_tried.effect = "not tried: no workload"
    recompile = Recompile("0/1", "0/0", ["0/0: L['n'] == 3"], guard, "user_branch")
    recompile.fixes = [REWRITE, not_tried]
    facts = Facts(
        compiles=[Compile("0/0", 0, 0, name="f"), Compile("0/1", 0, 1, name="f")],
        guards=[guard],
        recompiles=[recompile],
        hunt=hunt_rows(),
        source="synthetic",
    )
    collect_changes(facts).apply()  # as a build completes them
    return facts


def test_the_version_names_the_mime_type_and_reads_every_older_version() -> None:
    assert SCHEMA_VERSION == 13
    assert MIME_TYPE == "application/vnd.symdebug.session.v13+json"
    assert tuple(range(1, 14)) == READABLE_VERSIONS


def test_a_session_with_a_hunt_and_a_diff_saves_and_loads_equal(tmp_path: Path) -> None:
    session = symdebug.Session(hunted())
    session.save(tmp_path / "hunt.symdebug.json")
    loaded = symdebug.load(tmp_path / "hunt.symdebug.json")
    assert loaded.facts.hunt == hunt_rows()
    assert loaded.facts.hunt[1].user_frame == BRANCH
    assert loaded.facts.recompiles[0].fixes[0].diff == DIFF
    assert loaded.facts.recompiles[0].fixes[1].effect == "not tried: no workload"
    assert loaded.facts == session.facts
    assert loaded.to_json() == session.to_json()


def test_the_document_validates_and_an_older_one_reads_with_no_hunt_and_no_diffs() -> None:
    document = json.loads(json.dumps(facts_to_dict(hunted())))
    jsonschema.validate(document, json_schema())
    assert [row["verdict"] for row in document["hunt"]] == ["avoidable", "needed", "untested"]
    assert document["hunt"][1]["user_frame"] == {
        "filename": "/w/prog.py",
        "lineno": 12,
        "name": "f",
        "line": "if n > 4:",
    }
    older = dict(document, schema_version=9)
    del older["hunt"]
    for fix in (f for r in older["recompiles"] + older["guards"] for f in r["fixes"]):
        del fix["diff"]
    read = facts_from_dict(older)
    assert read.hunt == [] and all(f.diff == "" for f in read.recompiles[0].fixes)


def test_the_wire_restores_hunt_rows_and_diffs_and_a_redacted_one_drops_the_diff() -> None:
    document = facts_to_dict(hunted())
    assert unpack(json.loads(json.dumps(wire_document(hunted())))) == document
    clean = redacted(document)
    assert clean["recompiles"][0]["fixes"][0]["diff"] == "(redacted)"
    assert clean["recompiles"][0]["fixes"][1]["diff"] == ""  # none to redact
    assert clean["hunt"][1]["user_frame"]["filename"] == "prog.py"
    assert clean["hunt"][1]["user_frame"]["line"] == "(redacted)"
    assert document["hunt"][1]["user_frame"]["line"] == "if n > 4:"  # the original is kept


def test_the_summary_prints_one_hunt_line_per_row_in_order() -> None:
    text = render_summary(hunted())
    lines = text.splitlines()
    start = lines.index("hunt: 1 avoidable (2 compiles saved), 1 needed, 1 untested")
    mark = "torch._dynamo.maybe_mark_dynamic(x, 1)"
    assert lines[start + 1 : start + 4] == [
        f"  x.shape[1]  avoidable  saves 2 compiles (3 -> 1): {mark}",
        "  n           needed     user_branch at prog.py:12  if n > 4:",
        "  y.shape[0]  untested   no workload",
    ]


def test_the_summary_has_no_hunt_section_without_rows() -> None:
    facts = hunted()
    facts.hunt = []
    assert "hunt:" not in render_summary(facts)
    assert hunt_lines([]) == []


def test_a_hunt_line_names_dynamo_s_source_where_the_user_s_name_is_unknown() -> None:
    row = HuntRow(
        "L['k']", "", "float", "static_by_default", "avoidable", compiles=1, before=2, after=1
    )
    needed = HuntRow("L['m']", "", "int", "user_branch", "needed")
    assert hunt_lines([row, needed]) == [
        "hunt: 1 avoidable (1 compile saved), 1 needed, 0 untested",
        "  L['k']  avoidable  saves 1 compile (2 -> 1)",
        "  L['m']  needed     unknown at (unknown line)",
    ]

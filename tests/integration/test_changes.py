"""What to change, once per distinct change (issue 46, point 27): the overview's lead.

Recompiles whose best fix is the same code are one change, with the recompiles it is
expected to remove; once a replay verified it, the compiles it saved, as measured.
"""

from __future__ import annotations

import json

import pytest
import torch
from programs import captured, program

import symdebug
from symdebug.renderers.document import redacted_json


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    torch._dynamo.reset()
    return captured("repeated_fixes")


def test_one_change_per_distinct_best_fix_most_recompiles_first(session: symdebug.Session) -> None:
    changes = session.facts.changes
    best = [r.fixes[0].code for r in session.facts.recompiles if r.fixes]
    assert sorted(c.fixes[0].code for c in changes) == sorted(set(best))  # each said once
    for change in changes:
        ids = [r.compile_id for r in session.facts.recompiles if r.fixes[:1] == change.fixes]
        assert change.recompiles == ids  # every recompile whose best fix it is, in order
        assert change.causes == list(dict.fromkeys(session.index.recompile[i].cause for i in ids))
    counts = [len(c.recompiles) for c in changes]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 2
    assert any(c.causes == ["user_branch"] and len(c.recompiles) >= 2 for c in changes)


def test_the_changes_survive_a_save_and_an_older_document_gets_them(
    session: symdebug.Session,
) -> None:
    again = symdebug.Session.from_json(session.to_json())
    assert again.facts.changes == session.facts.changes
    document = json.loads(session.to_json())
    del document["changes"]
    document["schema_version"] = 12  # written before changes were
    older = symdebug.Session.from_json(json.dumps(document))
    assert older.facts.changes == session.facts.changes  # made again when read


def test_a_verified_change_says_the_compiles_the_replay_saved() -> None:
    workload = program("static_batch").workload
    torch._dynamo.reset()
    with symdebug.capture() as s:
        workload()
    (change,) = s.facts.changes
    assert change.fixes[0].verified is None and change.fixes[0].saved is None  # expected
    plan = s.fix_plan(workload, progress=False)
    (change,) = s.facts.changes
    fix = change.fixes[0]
    saved = sum(plan.before.values()) - sum(plan.after.values())
    assert (fix.code, fix.verified, fix.saved) == (plan.changes[0].code, True, saved) and saved == 1
    assert fix.effect == "measured: 2 -> 1 compiles"
    assert symdebug.Session.from_json(s.to_json()).facts.changes[0].fixes[0].saved == 1


def test_a_redacted_document_keeps_the_changes_without_the_code_around_them(
    session: symdebug.Session,
) -> None:
    document = json.loads(redacted_json(session.facts))
    lines = [line for change in document["changes"] for line in change["lines"]]
    assert lines and all(line["filename"] == "repeated_fixes.py" for line in lines)
    assert all(line["line"] != session.facts.changes[0].lines[0].line for line in lines)
    assert [c["recompiles"] for c in document["changes"]] == [
        c.recompiles for c in session.facts.changes
    ]

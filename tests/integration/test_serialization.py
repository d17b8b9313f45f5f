"""Session schema: save/load and to_json/from_json are lossless, and validate against the schema
(sessions read from the real logs: ``unit/test_serialization_logs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import torch

import symdebug
from symdebug.model.serialize import SCHEMA_VERSION, facts_to_dict, json_schema


def schema() -> dict[str, object]:
    return json_schema()


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    torch._dynamo.reset()
    import scenarios  # tests/ is on sys.path (pythonpath in pyproject.toml)

    return scenarios.run()


def test_round_trip_is_lossless(session: symdebug.Session, tmp_path: Path) -> None:
    path = tmp_path / "run.symdebug.json"
    session.save(path)
    loaded = symdebug.load(path)
    assert loaded.facts == session.facts
    assert loaded.to_json() == session.to_json()
    again = symdebug.Session.from_json(session.to_json())
    assert again.facts == session.facts
    # references survive: a recompile's guard is the same object as the one in guards
    linked = [r for r in again.recompiles if r.guard is not None]
    assert linked and all(any(r.guard is g for g in again.guards) for r in linked)


def test_json_validates_against_schema(session: symdebug.Session) -> None:
    document = json.loads(session.to_json())
    jsonschema.validate(document, schema())
    assert document["schema_version"] == SCHEMA_VERSION == 13
    assert document["explanations"] and all(e["steps"] for e in document["explanations"])
    fixes = [f for g in document["guards"] for f in g["fixes"]]
    assert fixes and all(
        set(f)
        == {
            "code",
            "kind",
            "explanation",
            "settings",
            "verified",
            "effect",
            "diff",
            "needs",
            "saved",
        }
        for f in fixes
    )


def test_schema_rejects_a_wrong_document(session: symdebug.Session) -> None:
    document = facts_to_dict(session.facts)
    document["guards"][0]["cause"] = "because"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(json.dumps(document)), schema())


def test_unknown_schema_version_is_refused(session: symdebug.Session) -> None:
    document = facts_to_dict(session.facts)
    document["schema_version"] = 99
    with pytest.raises(ValueError, match="schema_version 99"):
        symdebug.Session.from_json(json.dumps(document))
    with pytest.raises(ValueError, match="not a symdebug session"):
        symdebug.Session.from_json("[1, 2]")


def test_version_1_documents_still_read(session: symdebug.Session) -> None:
    document = facts_to_dict(session.facts)
    document["schema_version"] = 1
    for key in ("fx_nodes", "kernels", "graph_code"):
        del document[key]
    old = symdebug.Session.from_json(json.dumps(document))
    assert old.guards == session.guards and old.facts.kernels == []


def test_version_3_documents_get_the_explanations_of_today(session: symdebug.Session) -> None:
    """v3 had no explanations: the session that reads it explains every input again."""
    document = facts_to_dict(session.facts)
    document["schema_version"] = 3
    del document["explanations"]
    loaded = symdebug.Session.from_json(json.dumps(document))
    assert [e.source for e in loaded.explanations] == [e.source for e in session.explanations]
    assert str(loaded.why("x", 0)) == str(session.why("x", 0))


def test_version_2_documents_read_with_recompile_sources(session: symdebug.Session) -> None:
    """v2 had no ``sources`` on recompiles: they come from the specialization and guard."""
    assert any(r.sources for r in session.recompiles)
    document = facts_to_dict(session.facts)
    document["schema_version"] = 2
    for recompile in document["recompiles"]:
        del recompile["sources"]
    old = symdebug.Session.from_json(json.dumps(document))
    for before, after in zip(session.recompiles, old.recompiles, strict=True):
        linked = [before.specialization.source] if before.specialization else []
        linked += before.guard.sources if before.guard else []
        assert after.sources == list(dict.fromkeys(linked))

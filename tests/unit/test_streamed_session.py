"""A saved session is read as it streams in (issue 33, item 12): each record checked and built
as it is reached, never the whole document parsed at once.

The facts read so equal those of parsing the whole document first, whatever the chunks the
text arrives in (down to one character), and errors name the same JSON paths.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from odd_sessions import odd_documents

import symdebug
from symdebug.model import json_stream, json_text
from symdebug.model.serialize import facts_from_dict, facts_from_json
from symdebug.model.types import Facts

CHUNKS = (1, 7, json_stream.CHUNK)
#: A log whose session has guards (31) and recompiles.
GUARDED = "inductor_cuda_h200.log.gz"


def whole_parse(text: str) -> Facts:
    """The facts as read before streaming: the whole document parsed, then built."""
    return facts_from_dict(orjson.loads(text))


def many_guards(text: str, copies: int) -> dict[str, Any]:
    """The document with its guards repeated ``copies`` times, each copy new ids."""
    document = orjson.loads(text)
    real = document["guards"]
    document["guards"] = real + [
        dict(guard, id=f"{guard['id']}~{n}") for n in range(1, copies) for guard in real
    ]
    return document


@pytest.fixture(scope="module")
def saved() -> dict[str, str]:
    """Each test log's session as saved (``to_json``), by log name."""
    data = Path(__file__).parents[1] / "data"
    logs = [*data.glob("traces/*.log"), *data.glob("triton/*.log.gz"), *data.glob("export/*.log")]
    return {path.name: symdebug.load_trace(path).to_json() for path in logs}


@pytest.mark.parametrize("chunk", CHUNKS)
def test_each_trace_session_reads_as_a_whole_parse_does(
    saved: dict[str, str], chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    assert any(orjson.loads(text)["guards"] for text in saved.values())
    for name, text in saved.items():
        expected = whole_parse(text)
        assert facts_from_json(text) == expected, name
        assert facts_from_json(text.encode()) == expected, name
        assert facts_from_json(json.dumps(json.loads(text), indent=2)) == expected, name


@pytest.mark.slow
def test_a_session_of_many_guards_loads_from_its_file_as_a_whole_parse(
    saved: dict[str, str], tmp_path: Path
) -> None:
    text = json_text.dumps(many_guards(saved[GUARDED], 400)).decode()
    path = tmp_path / "many.json"
    path.write_text(text, encoding="utf-8")
    loaded = symdebug.Session.load(path)
    assert len(loaded.guards) == 400 * len(orjson.loads(saved[GUARDED])["guards"])
    assert loaded.facts == symdebug.Session.from_json(text).facts
    assert facts_from_json(path.open("rb")) == whole_parse(text)


@pytest.mark.parametrize("name", ["minimal", "huge", "unicode"])
@pytest.mark.parametrize("chunk", [3, json_stream.CHUNK])
def test_odd_documents_read_as_a_whole_parse(
    name: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    text = json_text.dumps(odd_documents()[name]).decode()
    assert facts_from_json(text) == whole_parse(text)


def test_records_read_before_the_schema_version_are_checked_by_it(saved: dict[str, str]) -> None:
    document = orjson.loads(saved[GUARDED])
    version_last = {key: value for key, value in document.items() if key != "schema_version"}
    version_last["schema_version"] = document["schema_version"]
    text = json_text.dumps(version_last).decode()
    assert facts_from_json(text) == whole_parse(saved[GUARDED])
    version_last["guards"][3]["cause"] = "because"
    with pytest.raises(ValueError, match=re.escape("guards[3].cause: expected one of")):
        facts_from_json(json_text.dumps(version_last))


def _broken(text: str, change: str) -> str:
    """The text with the ``expr`` of its last guard (far into it) made ``change``."""
    document = orjson.loads(text)
    far = text.index(json_text.dumps(document["guards"][-1]["id"]).decode())
    at = text.index('"expr":', far) + len('"expr":')
    return text[:at] + change + text[text.index(',"', at) :]


@pytest.mark.parametrize("chunk", [5, json_stream.CHUNK])
@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("7", r"not a valid symdebug session document: guards\[\d+\]\.expr: expected a string"),
        ("[" * 5000 + "]" * 5000, r"not a symdebug session: guards\[\d+\]\.expr\[0\].*too deep"),
        ('"open', r"not a symdebug session: not JSON \(Expecting ',' delimiter: character"),
        ("tru", r"not a symdebug session: not JSON \(Expecting value: character \d+"),
    ],
)
def test_a_broken_record_deep_in_a_big_document_is_named_by_its_path(
    saved: dict[str, str], chunk: int, change: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    text = json_text.dumps(many_guards(saved[GUARDED], 50)).decode()
    with pytest.raises(ValueError, match=said):
        facts_from_json(_broken(text, change))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"schema_version": 11', "not JSON (Expecting ',' or '}'"),
        ('{"schema_version": 11} {}', "not JSON (Extra data"),
        ('{"schema_version": 11, "guards": [}', "not JSON (Expecting value"),
        ("[1, 2]", "not an object"),
    ],
)
def test_a_broken_document_is_refused_saying_why(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        facts_from_json(text)


def test_an_array_of_records_that_is_no_array_is_named() -> None:
    document = dict(odd_documents()["minimal"], guards="x")
    with pytest.raises(ValueError, match=re.escape("guards: expected an array, got a string")):
        facts_from_json(json_text.dumps(document))

"""A saved session is untrusted input: checked against the shipped schema (issue 33, item 9).

Each hostile document is refused with a ``ValueError`` naming the field by its JSON path, never
a ``TypeError``, ``KeyError`` or ``RecursionError`` later; documents of odd shapes the schema
accepts load, print, answer ``why`` and render.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from odd_sessions import odd_documents

import symdebug
from symdebug.model import json_text
from symdebug.model.serialize import SCHEMA_VERSION

DOCUMENTS = odd_documents()
Document = dict[str, Any]


def nested(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def _set(path: str, value: Any) -> Callable[[Document], None]:
    """A change that sets the value at ``path`` (``guards.0.expr``)."""

    def change(document: Document) -> None:
        *parents, last = path.split(".")
        target: Any = document
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


HOSTILE: list[tuple[Callable[[Document], None], str]] = [
    (_set("guards.0.expr", 5), "guards[0].expr: expected a string, got an integer 5"),
    (_set("compiles.0.inputs", "x"), "compiles[0].inputs: expected an array"),
    (_set("symbols.0.sources", [1]), "symbols[0].sources[0]: expected a string"),
    (_set("recompiles.0.user_frame", []), "recompiles[0].user_frame: expected"),
    (_set("guards.0.cause", "because"), "guards[0].cause: expected one of"),
    (_set("guards.0.surprise", 1), "guards[0].surprise: unknown field"),
    (lambda d: d["compiles"][0].pop("compile_id"), "compiles[0]: missing field 'compile_id'"),
    (_set("schema_version", str(SCHEMA_VERSION)), f"schema_version '{SCHEMA_VERSION}' is not"),
    (_set("schema_version", 10**9), "schema_version 1000000000 is not supported"),
    (_set("schema_version", -1), "schema_version -1 is not supported"),
    (_set("schema_version", True), "schema_version True is not supported"),
    (lambda d: d.pop("schema_version"), "schema_version missing"),
    (_set("guards.0.user_stack", nested(40)), "guards[0].user_stack[0]: expected an object"),
    (_set("guards.0.fixes.0.settings", {"a": nested(40)}), "settings.a: nested deeper than"),
    (_set("specializations.0.guards", ["nope"]), "specializations[0].guards[0]: no guard"),
]


@pytest.mark.parametrize(("change", "said"), HOSTILE)
def test_a_hostile_document_is_refused_naming_the_field(
    change: Callable[[Document], None], said: str
) -> None:
    document = copy.deepcopy(DOCUMENTS["empty"])
    symdebug.Session.from_json(json_text.dumps(document))  # valid before the change
    change(document)
    with pytest.raises(ValueError, match=re.escape(said)):
        symdebug.Session.from_json(json_text.dumps(document))


def test_a_document_nested_100000_levels_is_refused_naming_the_field() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = f'{{"schema_version": {SCHEMA_VERSION}, "guards": {deep}}}'
    with pytest.raises(ValueError, match=re.escape("guards[0][0][0]") + ".*nested too deep"):
        symdebug.Session.from_json(text)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_an_odd_document_prints_answers_why_and_renders(name: str, tmp_path: Path) -> None:
    session = symdebug.Session.from_json(json_text.dumps(DOCUMENTS[name]))
    assert str(session) and repr(session)
    sources = {e.source for e in session.explanations}
    for source in sources:
        assert str(session.why(source))
    html = session.to_html(tmp_path / "odd.html").read_text(encoding="utf-8")
    assert "<html" in html.lower()
    if name != "minimal":
        assert sources  # the odd documents have an input to ask about

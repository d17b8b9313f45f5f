"""Facts <-> JSON.  Lossless: guards are stored once and referenced by id."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import IO, Any

from symdebug.model import json_text
from symdebug.model.facts_reader import RECORDS, FactsReader
from symdebug.model.session_format import (
    MIME_TYPE,
    READABLE_VERSIONS,
    SCHEMA_FILE,
    SCHEMA_VERSION,
    json_schema,
)
from symdebug.model.session_read import read_facts
from symdebug.model.types import (
    Callee,
    Facts,
    Fix,
    Frame,
    Guard,
    Recompile,
    Signature,
    Specialization,
    Symbol,
)

# The document's format lives in .session_format (its readers need it too); its names are
# this module's as well, where the users of a document have always found them.
__all__ = [
    "MIME_TYPE",
    "READABLE_VERSIONS",
    "REFERENCE_FIELDS",
    "SCHEMA_FILE",
    "SCHEMA_VERSION",
    "check_version",
    "facts_from_dict",
    "facts_from_json",
    "facts_to_dict",
    "facts_to_json",
    "json_schema",
    "plain_data",
    "record_to_dict",
    "stale_fixes",
    "stale_names",
]

#: Fields that refer to records stored elsewhere in the document: in every record but
#: ``Facts`` itself, a Guard or Specialization in one of these is written as its id.
REFERENCE_FIELDS = frozenset({"guards", "guard", "specialization"})


_SCALARS = (str, int, float, bool, type(None))


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names, or None for any other type (found once per type)."""
    if cls not in _FIELD_NAMES:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else None
        _FIELD_NAMES[cls] = tuple(f.name for f in fields) if fields is not None else None
    return _FIELD_NAMES[cls]


def plain_data(value: Any) -> Any:
    """``dataclasses.asdict`` without its deep copies (the document is written at once).

    Tuples become lists, as JSON writes them anyway.
    """
    if isinstance(value, _SCALARS):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {name: plain_data(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [plain_data(item) for item in value]
    if isinstance(value, dict):
        return {key: plain_data(item) for key, item in value.items()}
    return value


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass as a dict; Guard and Specialization references become ids."""
    out: dict[str, Any] = {}
    for name in _field_names(type(obj)) or ():
        value = getattr(obj, name)
        if name in REFERENCE_FIELDS and not isinstance(obj, Facts):
            value = _reference(value)
        elif isinstance(value, Frame | Signature | Callee):
            value = plain_data(value)
        elif name == "fixes":
            value = [_fix_dict(fix) for fix in value]
        elif isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
            value = [plain_data(item) for item in value]
        elif (
            isinstance(value, dict)
            and value
            and dataclasses.is_dataclass(next(iter(value.values())))
        ):
            value = {k: plain_data(v) for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def record_to_dict(record: Any) -> dict[str, Any]:
    """One record of the facts (a guard, a symbol ...) as :func:`facts_to_dict` writes it.

    A big session's report and redacted save write the guards one at a time with it.
    """
    return _plain(record)


def _fix_dict(fix: Fix) -> dict[str, Any]:
    """A fix as a dict (fixes are shared between records: no deep copy of each)."""
    return {
        "code": fix.code,
        "kind": fix.kind,
        "explanation": fix.explanation,
        "settings": dict(fix.settings),
        "verified": fix.verified,
        "effect": fix.effect,
        "diff": fix.diff,
        "needs": fix.needs,
        "saved": fix.saved,
    }


def _reference(value: Any) -> Any:
    if isinstance(value, list):
        return [guard.id for guard in value]
    if isinstance(value, Guard):
        return value.id
    if isinstance(value, Specialization):
        return f"{value.compile_id}|{value.source}"
    return None


def facts_to_dict(facts: Facts) -> dict[str, Any]:
    """The JSON-able document for a session."""
    return {
        "schema_version": SCHEMA_VERSION,
        "source": facts.source,
        "rank": facts.rank,
        "problems": facts.problems,
        "problem_examples": facts.problem_examples,
        "capture_errors": facts.capture_errors,
        "dropped_compiles": facts.dropped_compiles,
        "compiles": [_plain(c) for c in facts.compiles],
        "guards": [_plain(g) for g in facts.guards],
        "symbols": [_plain(s) for s in facts.symbols],
        "specializations": [_plain(s) for s in facts.specializations],
        "recompiles": [_plain(r) for r in facts.recompiles],
        "fx_nodes": [plain_data(n) for n in facts.fx_nodes],
        "kernels": [plain_data(k) for k in facts.kernels],
        "graph_code": [plain_data(g) for g in facts.graph_code],
        "explanations": [_plain(e) for e in facts.explanations],
        "graph_breaks": [_plain(b) for b in facts.graph_breaks],
        "sweeps": facts.sweeps,
        "hunt": [_plain(row) for row in facts.hunt],
        "marks": [plain_data(site) for site in facts.marks],
        "torch": plain_data(facts.torch),
        "changes": [_plain(change) for change in facts.changes],
    }


def facts_to_json(facts: Facts) -> str:
    """Serialize a session to a JSON string."""
    return json_text.dumps(facts_to_dict(facts)).decode()


def check_version(document: dict[str, Any]) -> None:
    """Refuse documents of a schema this version cannot read."""
    version = document.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise ValueError(
            f"symdebug session schema_version {version!r} is not supported "
            f"(this symdebug reads versions {', '.join(map(str, READABLE_VERSIONS))})"
        )


def _taken(items: list[Any], owned: bool) -> Iterator[Any]:
    """Each item in order; from a document no one else holds, each let go once read."""
    for index, item in enumerate(items):
        if owned:
            items[index] = None
        yield item


def facts_from_dict(document: dict[str, Any], *, owned: bool = False) -> Facts:
    """Rebuild facts from :func:`facts_to_dict` output.

    ``owned``: the document is no one else's (just parsed), so its records are let go one by
    one as they are read: the parsed document and the facts are not both whole at once.
    """
    check_version(document)
    reader = FactsReader()
    for key in [key for key in document if key in RECORDS]:
        for data in _taken(document[key], owned):
            reader.add(key, data)
    return reader.facts(document)


def stale_fixes(facts: Facts) -> bool:
    """Whether the facts were read from a document whose fixes were text (before v5).

    Such a record has a ``fix`` text but no ``fixes``; the reader suggests them again.
    """
    records: list[Guard | Symbol | Specialization | Recompile] = [
        *facts.guards,
        *facts.symbols,
        *facts.specializations,
        *facts.recompiles,
    ]
    return any(record.fix is not None and not record.fixes for record in records)


def stale_names(facts: Facts) -> bool:
    """Whether the facts were read from a document older than the user's names (v7).

    Such a document renamed no symbol, grouped no constant and named no explanation,
    though a wrapper's inputs were renamed or a library's constants specialized.
    """
    if any(s.user_names or s.expected for s in facts.symbols):
        return False
    renames = any(c.callee is not None and c.callee.names for c in facts.compiles)
    constants = any(
        s.state == "specialized" and s.cause == "int_specialized" for s in facts.symbols
    )
    return renames or constants


def facts_from_json(source: str | bytes | IO[bytes]) -> Facts:
    """Read a session JSON document (text, or a binary file of it), as untrusted input.

    Each record is checked against the schema as it is read, and built at once: a big
    document is never held whole as parsed JSON (:mod:`symdebug.model.session_read`).
    """
    try:
        return read_facts(source)
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise ValueError(f"not a valid symdebug session document: {detail}") from None

"""A saved session read as untrusted input: parsed and checked against the shipped schema.

A document of today's version must validate against ``schema/session.schema.json``; an older
one (:data:`~symdebug.model.session_format.READABLE_VERSIONS`) may miss fields its reader fills in
and hold fields since removed, and may use the forms of :data:`OLDER_FORMS`.  Guard ids that
records refer to must exist.  Every failure is a ``ValueError`` naming the value's JSON path.
"""

from __future__ import annotations

import functools
from collections.abc import Container, Mapping
from typing import Any

from symdebug.model import json_text
from symdebug.model.json_depth import too_deep
from symdebug.model.session_format import READABLE_VERSIONS, SCHEMA_VERSION, json_schema
from symdebug.model.validate import Validator

#: Shapes an older document may hold instead of today's, by ``$defs`` name: the first version
#: that no longer writes them, and their schema.  Before v5 a fix was its code as text.
#: A change of a field's type must add its older form here, or older documents are refused.
OLDER_FORMS: dict[str, tuple[int, dict[str, Any]]] = {"Fix": (5, {"type": "string"})}
#: Records whose ``guards`` are ids of the document's guards.
GUARD_LISTS = ("specializations", "explanations")


def parse(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a session document; ``ValueError`` when it is none."""
    try:
        document = json_text.loads(text)
    except RecursionError:  # the standard library's parser, past orjson's depth limit
        path = too_deep(text, _validator(None).max_depth)
        raise ValueError(f"not a symdebug session: {path}: nested too deep") from None
    except ValueError as error:
        raise ValueError(f"not a symdebug session: not JSON ({error})") from None
    if not isinstance(document, dict):
        raise ValueError("not a symdebug session: the JSON document is not an object")  # noqa: TRY004
    return document


def check(document: dict[str, Any]) -> None:
    """Refuse a document that today's schema (or an older version's forms) does not allow.

    Raises
    ------
    ValueError
        ``not a valid symdebug session document: compiles[3].guards[0].expr: expected a
        string, got null``.
    """
    validator = validator_of(document)
    try:
        validator.check(document)
        _check_references(document)
    except ValueError as error:
        raise ValueError(f"not a valid symdebug session document: {error}") from None


def validator_of(document: dict[str, Any]) -> Validator:
    """The validator of the document's ``schema_version``; ``ValueError`` for one not read."""
    version = _version(document)
    return _validator(None if version == SCHEMA_VERSION else version)


def deepest() -> int:
    """How deep a valid document of any version can nest (a reader refuses deeper)."""
    return _validator(None).max_depth


def _version(document: dict[str, Any]) -> int:
    version = document.get("schema_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        said = "missing" if "schema_version" not in document else f"{version!r} is not supported"
        raise ValueError(
            f"symdebug session schema_version {said} "
            f"(this symdebug reads versions {', '.join(map(str, READABLE_VERSIONS))})"
        )
    return version


@functools.cache
def _validator(older: int | None) -> Validator:
    """Today's schema compiled (None), or its lenient form for an older version."""
    schema = json_schema()
    if older is None:
        return Validator(schema)
    defs = dict(schema.get("$defs", {}))
    for name, (until, form) in OLDER_FORMS.items():
        if older < until and name in defs:
            defs[name] = {"anyOf": [defs[name], form]}
    properties = dict(schema["properties"], schema_version={"enum": list(READABLE_VERSIONS)})
    return Validator(dict(schema, properties=properties, **{"$defs": defs}), lenient=True)


def _check_references(document: dict[str, Any]) -> None:
    """Every guard id a specialization or explanation lists is a guard of the document."""
    check_guard_ids({guard.get("id") for guard in document.get("guards", [])}, document)


def check_guard_ids(ids: Container[Any], records: Mapping[str, list[Any]]) -> None:
    """Every guard id the specializations or explanations of ``records`` list is in ``ids``."""
    for key in GUARD_LISTS:
        for index, record in enumerate(records.get(key, [])):
            for place, guard in enumerate(record.get("guards", [])):
                if guard not in ids:
                    raise ValueError(f"{key}[{index}].guards[{place}]: no guard {guard!r}")

"""Checks of arrays and objects: their items and properties (see :mod:`.validate_nodes`).

A property or item whose schema is one plain ``type`` is checked inline, without a call:
most values of a session are strings and integers, so this is most of the speed.
The checks of the items and properties themselves are compiled by the caller's ``node``
(:func:`~symdebug.model.validate_nodes.compile_node`): nodes hold containers and
containers hold nodes, and the callback keeps the two modules from importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symdebug.model.validate_types import TYPES, Check, Invalid, expected, fits

#: Compiles the schema of an item or property into its check.
Node = Callable[[Any], Check]


def container(schema: dict[str, Any], kinds: list[str], node: Node, lenient: bool) -> Check | None:
    """The check of an array's items or an object's properties; None when there are none."""
    listed = _array(schema, node) if "array" in kinds else None
    record = _object(schema, node, lenient) if "object" in kinds else None
    if listed is None or record is None:
        return listed or record

    def either(value: Any) -> None:
        (listed if type(value) is list else record)(value)

    return either


def _plain(schema: Any) -> tuple[type, ...] | None:
    """The Python types of a schema that is just ``{"type": ...}`` of scalars, else None."""
    if not isinstance(schema, dict) or list(schema) != ["type"]:
        return None
    kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
    if any(kind in ("array", "object") for kind in kinds):
        return None
    return tuple(t for kind in kinds for t in TYPES[kind])


def _array(schema: dict[str, Any], node: Node) -> Check | None:
    prefix = [node(s) for s in schema.get("prefixItems", [])]
    least = int(schema.get("minItems", 0))
    if "items" not in schema and not prefix and not least:
        return None
    plain = _plain(schema.get("items"))
    rest = node(schema.get("items", {}))

    def check(value: list[Any]) -> None:
        if len(value) < least:
            raise Invalid(f"expected at least {least} items, got {len(value)}")
        for index, item in enumerate(value):
            if (
                plain is not None
                and index >= len(prefix)
                and (type(item) in plain or fits(plain, item))
            ):
                continue
            try:
                (prefix[index] if index < len(prefix) else rest)(item)
            except Invalid as error:
                raise error.inside(index) from None

    return check


def _object(schema: dict[str, Any], node: Node, lenient: bool) -> Check:
    """Properties checked by name, each inline when plain; required ones all present."""
    properties = schema.get("properties", {})
    plain = {name: t for name, s in properties.items() if (t := _plain(s)) is not None}
    checks = {name: node(s) for name, s in properties.items()}
    other = schema.get("additionalProperties", {})
    if other is False and lenient:  # an older document may hold a field since removed
        other = {}
    extra = None if other is False else node(other)
    required = frozenset(() if lenient else schema.get("required", ()))

    def check(value: dict[str, Any]) -> None:
        if not value.keys() >= required:
            raise Invalid(f"missing field {sorted(required - value.keys())[0]!r}")
        for key, item in value.items():
            types = plain.get(key)
            if types is not None:
                if type(item) not in types and not fits(types, item):
                    raise expected(types, item).inside(key)
                continue
            _one(checks.get(key, extra), key, item)

    return check


def _one(check: Check | None, key: str, item: Any) -> None:
    if check is None:
        raise Invalid("unknown field").inside(key)
    try:
        check(item)
    except Invalid as error:
        raise error.inside(key) from None

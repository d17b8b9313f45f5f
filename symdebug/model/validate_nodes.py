"""The checks a schema node compiles into (:class:`~symdebug.model.validate.Validator`).

Each check takes a value and returns None, or raises :class:`Invalid`; the path of the
failing value is collected while the error goes up (nothing is spent on it otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from symdebug.model.validate_containers import container
from symdebug.model.validate_types import TYPES, Check, Invalid, Ref, expected, fits, shown

#: How deep a free-form value (schema ``{}``: fix settings, sweeps) may nest: far below
#: what the JSON writers reach (orjson stops at 255 levels) and the readers' recursion.
FREE_DEPTH = 32


def compile_node(schema: Any, ref: Ref, lenient: bool) -> Check:  # noqa: PLR0911 - one per keyword
    """The check of one schema node (``ref`` gives the check of a ``$defs`` name)."""
    if schema is False:
        return _never
    if not isinstance(schema, dict):
        return _free
    if "$ref" in schema:
        return ref(str(schema["$ref"]).rsplit("/", 1)[-1])
    if "anyOf" in schema or "oneOf" in schema:
        return _alternatives(schema, ref, lenient)
    if "enum" in schema or "const" in schema:
        return _enum(schema.get("enum", [schema.get("const")]))
    kinds = schema.get("type")
    if kinds is None:
        return _free
    kinds = [kinds] if isinstance(kinds, str) else kinds
    types = tuple(t for kind in kinds for t in TYPES[kind])
    inner = container(schema, kinds, lambda child: compile_node(child, ref, lenient), lenient)
    return _typed(types, inner)


def _typed(types: tuple[type, ...], inner: Check | None) -> Check:
    def check(value: Any) -> None:
        if type(value) not in types and not fits(types, value):
            raise expected(types, value)
        if inner is not None:
            inner(value)

    return check


def _never(value: Any) -> None:
    raise Invalid(f"no value is allowed here, got {shown(value)}")


def _free(value: Any) -> None:
    """Any JSON value, nested at most :data:`FREE_DEPTH` levels (walked without recursion)."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth >= FREE_DEPTH:
                raise Invalid(f"nested deeper than {FREE_DEPTH} levels")
            inner = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in inner)


def _enum(values: list[Any]) -> Check:
    """Equal to one of ``values`` and of the same JSON type (``true`` is not ``1``)."""
    allowed = {(type(v), v) for v in values}
    listed = ", ".join(repr(v) for v in values[:8]) + (", ..." if len(values) > 8 else "")

    def check(value: Any) -> None:
        try:
            if (type(value), value) in allowed:
                return
        except TypeError:  # an array or object: unhashable, and in no enum here
            pass
        raise Invalid(f"expected one of {listed}, got {shown(value)}")

    return check


def _alternatives(schema: dict[str, Any], ref: Ref, lenient: bool) -> Check:
    """``anyOf`` (one member validates) or ``oneOf`` (exactly one does)."""
    exactly_one = "oneOf" in schema
    members = [compile_node(m, ref, lenient) for m in schema.get("anyOf") or schema["oneOf"]]

    def check(value: Any) -> None:
        errors = list(_failures(members, value))
        passed = len(members) - len(errors)
        if passed == 1 or (passed > 1 and not exactly_one):
            return
        if passed > 1:
            raise Invalid(f"matches {passed} alternatives of a oneOf, not exactly one")
        raise max(errors, key=lambda error: len(error.path))  # the nearest miss

    return check


def _failures(members: list[Check], value: Any) -> Iterator[Invalid]:
    for member in members:
        try:
            member(value)
        except Invalid as error:  # noqa: PERF203 - a miss is the rare case
            yield error


def schema_depth(schema: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()) -> int:
    """How many arrays and objects a value of ``schema`` can nest.

    Free values count :data:`FREE_DEPTH`; a definition reached again inside itself too.
    """
    if not isinstance(schema, dict):
        return 0 if schema is False else FREE_DEPTH
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return FREE_DEPTH if name in seen else schema_depth(defs[name], defs, seen | {name})
    if "enum" in schema or "const" in schema:
        return 0
    if "type" not in schema and not any(k in schema for k in ("anyOf", "oneOf")):
        return FREE_DEPTH
    members = [*schema.get("anyOf", []), *schema.get("oneOf", [])]
    inner = [*schema.get("prefixItems", []), *schema.get("properties", {}).values()]
    inner += [schema[k] for k in ("items", "additionalProperties") if k in schema]
    nested = max((schema_depth(s, defs, seen) for s in inner), default=0)
    outer = max((schema_depth(s, defs, seen) for s in members), default=0)
    kinds = schema.get("type", [])
    container = {"array", "object"} & set([kinds] if isinstance(kinds, str) else kinds)
    return max(outer, (1 + nested) if container else 0)

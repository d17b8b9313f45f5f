"""Session documents of odd shapes that the shipped schema accepts, derived from the schema.

``odd_documents()`` gives the minimal document (every list and map empty, every nullable
field null) and documents with one record in every list whose scalars are all empty, all
huge, or all unusual unicode: shapes a real log rarely makes but a saved file may hold.
"""

from __future__ import annotations

from typing import Any

from symdebug.model.serialize import json_schema

#: Scalars by JSON type, per variant.
VARIANTS: dict[str, dict[str, Any]] = {
    "empty": {"string": "", "integer": 0, "number": 0.0, "boolean": False},
    "huge": {"string": "9" * 5000, "integer": 2**63 - 1, "number": 1e308, "boolean": True},
    "unicode": {
        "string": "\u202eΣ\U0001d518 </script><!-- \u2028 \x00 \ud7ff 日本",
        "integer": -(2**53),
        "number": -0.0,
        "boolean": True,
    },
}


def odd_documents() -> dict[str, dict[str, Any]]:
    """The minimal document, and one of each :data:`VARIANTS`, by name."""
    schema = json_schema()
    out = {"minimal": _Maker(schema, None).value(schema)}
    for name, scalars in VARIANTS.items():
        out[name] = _Maker(schema, scalars).value(schema)
    return out


class _Maker:
    """Builds a value of a schema node: ``scalars`` None makes the minimal one."""

    def __init__(self, schema: dict[str, Any], scalars: dict[str, Any] | None) -> None:
        self.defs = schema["$defs"]
        self.scalars = scalars
        self.depth = 0

    def value(self, node: Any) -> Any:
        if not isinstance(node, dict) or not node:
            return None if self.scalars is None else {"κ": [1, "x", None]}
        if "$ref" in node:
            return self.value(self.defs[node["$ref"].rsplit("/", 1)[-1]])
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return node["enum"][0 if self.scalars is None else -1]
        if "anyOf" in node:
            nullable = [m for m in node["anyOf"] if m.get("type") == "null"]
            return None if nullable else self.value(node["anyOf"][-1])
        kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if "null" in kinds and (self.scalars is None or len(kinds) > 2):
            return None
        return self.typed(node, next(k for k in kinds if k != "null"))

    def typed(self, node: dict[str, Any], kind: str) -> Any:
        if kind == "object":
            return self.record(node)
        if kind == "array":
            return self.array(node)
        scalars = self.scalars or VARIANTS["empty"]
        return scalars[kind]

    def record(self, node: dict[str, Any]) -> dict[str, Any]:
        properties = node.get("properties", {})
        out = {name: self.nested(properties[name]) for name in node.get("required", [])}
        extra = node.get("additionalProperties")
        if not properties and self.scalars is not None and extra is not False:
            out["ключ 🔑"] = self.nested(extra or {})
        return out

    def array(self, node: dict[str, Any]) -> list[Any]:
        if "prefixItems" in node:
            return [self.nested(item) for item in node["prefixItems"]]
        if self.scalars is None or self.depth > 3:
            return []
        return [self.nested(node.get("items", {}))]

    def nested(self, node: Any) -> Any:
        self.depth += 1
        try:
            return self.value(node)
        finally:
            self.depth -= 1

"""A JSON Schema validator for the subset the generated schemas use, compiled once, linear.

The schemas of :mod:`symdebug.model.contract` use ``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``prefixItems``, ``minItems``, ``enum``, ``const``,
``anyOf``, ``oneOf`` and ``$ref`` into ``$defs``.  ``jsonschema`` reads them too but is a
development tool, and walks a big document many times slower: this compiles each schema
node into one small function, so a check costs about one type test per value.  A failure
raises ``ValueError`` naming the value by its JSON path (``compiles[3].guards[0].expr``).

Stricter than the standard in one way, as the readers and writers of a session need: a
free-form value (schema ``{}``) may nest at most :data:`FREE_DEPTH` levels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symdebug.model.validate_nodes import FREE_DEPTH, compile_node, schema_depth
from symdebug.model.validate_types import Invalid

__all__ = ["FREE_DEPTH", "Validator"]

Check = Callable[[Any], None]


class Validator:
    """A schema compiled into checks; :meth:`check` validates a document against it.

    Parameters
    ----------
    schema
        A JSON Schema of the subset above (its ``$defs`` are resolved from it).
    lenient
        Let objects omit required properties and hold unknown ones (an older document,
        which its reader completes).
    """

    def __init__(self, schema: dict[str, Any], *, lenient: bool = False) -> None:
        self.defs: dict[str, Check] = {}
        self._schema = schema
        self._lenient = lenient
        self.root = compile_node(schema, self._ref, lenient)
        #: The deepest nesting a valid document can have (free-form values count
        #: :data:`FREE_DEPTH`): a parser may refuse anything deeper before reading it.
        self.max_depth = schema_depth(schema, schema.get("$defs", {}))

    def _ref(self, name: str) -> Check:
        """The check of ``#/$defs/<name>``, compiled when first reached (defs may recurse)."""
        if name not in self.defs:
            self.defs[name] = _forward(self.defs, name)
            definition = self._schema.get("$defs", {}).get(name)
            if definition is None:
                raise KeyError(f"the schema has no $defs entry {name!r}")
            self.defs[name] = compile_node(definition, self._ref, self._lenient)
        return self.defs[name]

    def check(self, document: Any, definition: str | None = None, path: str = "") -> None:
        """Validate ``document`` (or one record, against ``$defs`` entry ``definition``).

        Parameters
        ----------
        document
            Parsed JSON.
        definition
            A ``$defs`` name to check one record against (a streaming reader checks each
            record as it reaches it); default: the whole schema.
        path
            The JSON path of ``document`` in its file, put before the failing value's.

        Raises
        ------
        ValueError
            ``<path>: <what is wrong>`` for the first value that does not validate.
        """
        check = self.root if definition is None else self._ref(definition)
        try:
            check(document)
        except Invalid as error:
            raise ValueError(error.said(path)) from None


def _forward(defs: dict[str, Check], name: str) -> Check:
    """A check that calls ``defs[name]`` once it exists (a definition that refers to itself)."""

    def later(value: Any) -> None:
        defs[name](value)

    return later

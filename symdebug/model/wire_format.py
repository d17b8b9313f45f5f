"""The wire: the session as the viewer receives it (report, notebook output, widget), packed.

One source for both sides.  The renderers pack the session document by these constants
(:mod:`symdebug.renderers.document`, ``text_lists``, ``wire_json``, ``wire_stream``,
``wire_patch``) and the viewer unpacks it by the same: :mod:`symdebug.model.contract` writes
:data:`VIEWER_CONSTANTS` and :data:`VIEWER_TYPES` into ``extension/src/wire.ts``, each
constant with its ``#:`` comment, so a change here reaches the viewer at ``make contract``
and ``make viewer-check`` fails until it has.  They live with the model, not the renderers,
because the contract (a model module) may not import a renderer.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from symdebug.model.types import Fix, Frame

#: The wire's packing, its first field (``packed``): 4 keeps every key, stores records as
#: tables and each distinct fix of any record once; 5 also stores recompile reasons as
#: chains of shared tails.  A new packing is a new number: Python reads the older ones.
PACKING = 5
#: The key of the wire's packing: a document without it is a plain session document.
PACKING_FIELD = "packed"
#: A frame's keys, in the order of each row of the wire's shared ``frames`` (a ``Frame``'s fields).
FRAME_KEYS = tuple(f.name for f in dataclasses.fields(Frame))
#: A fix's keys in the document's order (the wire sorts them: equal fixes are one).
FIX_KEYS = tuple(f.name for f in dataclasses.fields(Fix))
#: Per record list, its fields that are stacks of frames, each frame an index into ``frames``.
FRAME_STACKS: dict[str, tuple[str, ...]] = {"guards": ("user_stack", "framework_stack")}
#: The record lists whose ``fixes`` (and ``fix`` text, where they have one) go by index into
#: ``fix_objects`` (and ``fixes``).
WITH_FIXES = (
    "guards",
    "symbols",
    "specializations",
    "recompiles",
    "explanations",
    "graph_breaks",
    "changes",
)
#: Per record list, its fields that are lists of texts packed as chains of cells into
#: ``text_lists`` (each field's value the index of its first cell).
TEXT_LISTS: dict[str, tuple[str, ...]] = {
    "compiles": ("recompile_reasons",),
    "recompiles": ("reasons", "failed_entries"),
}
#: The ``rest`` of the last cell of a chain, and the cell of an empty list.
CHAIN_END = -1
#: A widget patch's operation (``symdebug.renderers.wire_patch``) that appends the new
#: items of a list whose old items are unchanged.
APPEND = "append"
#: A widget patch's operation that sets a value (at the empty path: the whole wire).
SET = "set"


@dataclass(frozen=True, slots=True)
class TextLists:
    """Lists of texts as chains of cells ``[text, rest]`` into ``texts``, equal cells once."""

    texts: list[str]
    cells: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Table:
    """A list of records as the wire stores it: the keys once, then one row of values each."""

    columns: list[str]
    rows: list[list[Any]]


#: A table's keys (``Table``'s fields), as the wire writes them.
TABLE_COLUMNS, TABLE_ROWS = (f.name for f in dataclasses.fields(Table))


@dataclass(frozen=True, slots=True)
class Wire:
    """The session document packed: ``packed`` (``PACKING_FIELD``) first, then these fields.

    The record lists named in ``tables`` are tables, stacks index ``frames``, fixes index
    ``fix_objects`` (fix texts ``fixes``), and the lists of ``TEXT_LISTS`` are chains of
    ``text_lists``.
    """

    redacted: bool
    frames: list[tuple[str, int, str, str]]
    fixes: list[str]
    fix_objects: list[Fix]
    text_lists: TextLists
    tables: list[str]
    session: dict[str, Any]


#: The constants ``extension/src/wire.ts`` exports, in its order.
VIEWER_CONSTANTS = (
    "PACKING",
    "PACKING_FIELD",
    "FRAME_KEYS",
    "FRAME_STACKS",
    "WITH_FIXES",
    "TEXT_LISTS",
    "CHAIN_END",
    "APPEND",
    "SET",
)
#: The wire's records ``extension/src/wire.ts`` declares (a ``Fix`` is the session's).
VIEWER_TYPES: tuple[type, ...] = (Wire, TextLists, Table)

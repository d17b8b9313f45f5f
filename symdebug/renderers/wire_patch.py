"""What changed between two wire documents: what the explorer widget sends after a cell.

A later cell mostly adds to the wire (:func:`~symdebug.renderers.document.wire_document`):
more compiles, guards and frames at the end of their lists.  A patch is a list of operations
on paths into the wire: ``append`` the new items of a list whose old items are unchanged,
else ``set`` the new value; unchanged values are left out.  The view applies them in order
(``extension/src/patch.ts``) and gets the same wire as the whole document would give.  The
operations' names are the wire's (:mod:`symdebug.model.wire_format`).
"""

from __future__ import annotations

from typing import Any

from symdebug.model.wire_format import APPEND, SET, TABLE_COLUMNS, TABLE_ROWS

#: One operation: ``{"op": "append", "path": [...], "items": [...]}`` or
#: ``{"op": "set", "path": [...], "value": ...}`` (the empty path sets the whole wire).
Operation = dict[str, Any]


def wire_patch(old: dict[str, Any], new: dict[str, Any]) -> list[Operation]:
    """The operations that turn ``old`` into ``new`` (none when they are equal)."""
    if old.keys() != new.keys() or old.get("session", {}).keys() != new["session"].keys():
        return [] if old == new else [{"op": SET, "path": [], "value": new}]
    operations: list[Operation] = []
    for key, value in new.items():
        if key != "session":
            _compare(operations, [key], old[key], value)
    for name, value in new["session"].items():
        _compare(operations, ["session", name], old["session"][name], value)
    return operations


def _is_table(value: Any) -> bool:
    return isinstance(value, dict) and value.keys() == {TABLE_COLUMNS, TABLE_ROWS}


def _compare(operations: list[Operation], path: list[str], old: Any, new: Any) -> None:
    if old == new:
        return
    if _is_table(old) and _is_table(new) and old[TABLE_COLUMNS] == new[TABLE_COLUMNS]:
        _compare(operations, [*path, TABLE_ROWS], old[TABLE_ROWS], new[TABLE_ROWS])
    elif isinstance(old, list) and isinstance(new, list) and new[: len(old)] == old:
        operations.append({"op": APPEND, "path": path, "items": new[len(old) :]})
    else:
        operations.append({"op": SET, "path": path, "value": new})

"""What a view does with the explorer's patches (``extension/src/patch.ts``), in Python: the
tests check that a patch turns the document a view has into the new one."""

from __future__ import annotations

from typing import Any

Operation = dict[str, Any]


def applied(wire: dict[str, Any], operations: list[Operation]) -> dict[str, Any]:
    """``wire`` with the operations applied (a copy of each container on the way)."""
    result = dict(wire)
    for operation in operations:
        result = _apply(result, operation)
    return result


def _apply(wire: dict[str, Any], operation: Operation) -> dict[str, Any]:
    path = operation["path"]
    if not path:
        return dict(operation["value"])
    root = dict(wire)
    parent: Any = root
    for key in path[:-1]:
        parent[key] = dict(parent[key])
        parent = parent[key]
    last = path[-1]
    if operation["op"] == "append":
        parent[last] = [*parent[last], *operation["items"]]
    else:
        parent[last] = operation["value"]
    return root

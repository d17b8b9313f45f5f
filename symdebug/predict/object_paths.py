"""What the entries read inside objects a call passes: a cache object's tensors and flags.

Dynamo guards an object a call passes through the paths its code read:
``L['kwargs']['past_key_values'].layers[0].keys.size()[2]``, ``....layers[0].is_initialized``.
A binding flattens tensors, shapes, scalars and containers on its own; for any other object
it follows, from the object the call passes, only the attributes and items the entries
check, one step at a time (never evaluated as code), and binds what it reaches as it binds
an argument.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: One step from a parent path to a child: (is an item, the key or attribute, child path).
Step = tuple[bool, Any, str]
#: Parent path -> the steps the entries take from it.
ObjectPaths = Mapping[str, tuple[Step, ...]]
#: Binds one value at a path (``arguments.flatten``).
Binder = Callable[[dict[str, Any], str, Any], None]


def object_paths(sources: Iterable[str], prefixes: Iterable[str], receiver: str) -> ObjectPaths:
    """The attribute and item steps of every source, by parent, under the call's arguments.

    ``prefixes`` are the fact prefixes (``len:``, ``ndim:``) a source may carry; the module
    at ``receiver`` and the globals are read elsewhere, as the program's own state.
    """
    found: dict[str, dict[tuple[bool, Any], Step]] = {}
    leading = tuple(prefixes)
    for source in sources:
        path = next((source.removeprefix(p) for p in leading if source.startswith(p)), source)
        try:
            node = ast.parse(path, mode="eval").body
        except SyntaxError:
            continue
        for parent, step in _steps(node):
            if parent.startswith("L[") and not parent.startswith(receiver):
                found.setdefault(parent, {})[step[:2]] = step
    return {parent: tuple(steps.values()) for parent, steps in found.items()}


def _steps(node: ast.expr) -> Iterable[tuple[str, Step]]:
    """(parent, step) for each attribute or constant item on the way to the root."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value  # ``size()``, ``dim()``: read by the tensor's binding
            continue
        if isinstance(node, ast.Attribute):
            yield ast.unparse(node.value), (False, node.attr, ast.unparse(node))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if not isinstance(node.value, ast.Call):  # ``size()[2]``: the tensor's own binding
                yield ast.unparse(node.value), (True, node.slice.value, ast.unparse(node))
        else:
            return
        node = node.value


def bind_inside(values: dict[str, Any], paths: ObjectPaths, prefix: str, bind: Binder) -> None:
    """Bind what the entries read inside the objects bound so far (``prefix``: their key).

    A path the object does not have is left unbound: the check reading it is then not
    evaluated (or, for a container's item, fails as Dynamo's would).
    """
    done: set[str] = set()
    while todo := [
        key[len(prefix) :]
        for key in values
        if key.startswith(prefix) and key[len(prefix) :] in paths and key not in done
    ]:
        for base in todo:
            done.add(prefix + base)
            _bind_children(values, paths[base], values[prefix + base], prefix, bind)


def _bind_children(
    values: dict[str, Any], steps: tuple[Step, ...], parent: Any, prefix: str, bind: Binder
) -> None:
    for is_item, name, child in steps:
        if prefix + child in values:
            continue  # bound already: the call's own value, or a container's item
        try:
            found = parent[name] if is_item else getattr(parent, name)
        except Exception:  # noqa: BLE001, S112 - a path this object does not have
            continue
        bind(values, child, found)

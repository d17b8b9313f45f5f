"""The program's state now, read from the live module a frame was compiled for.

A prediction from facts alone takes a module's state as recorded (its flags, its parameters'
sizes): it cannot know that ``model.eval()`` ran since.  A live session still holds the
module (weakly): each check's source under ``L['self']`` is read from it as it is now, so
``L['self']._modules['drop'].training == True`` fails after ``eval()``, as torch's guard does.

Sources are Dynamo's (``L['self']._modules['drop'].training``, ``len:...``, ``ndim:...``,
``...size()[0]``); each is followed step by step (attributes, constant keys, ``size()``,
``stride()``, ``dim()``), never evaluated as code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import torch

from symdebug._torch.dispatch_state import (
    KEYS_LIKE_RECORDED,
    dispatch_keys_seen,
    global_state_now,
)
from symdebug.predict.arguments import (
    CLASS_PREFIX,
    DISPATCH_PREFIX,
    GLOBAL_PREFIX,
    OBJECT_PREFIX,
    RECEIVER,
    TENSOR_FACTS,
    class_name,
)
from symdebug.predict.predict import READ_FROM, ProgramReader, frame_compiles

if TYPE_CHECKING:
    from symdebug.live.program_view import ProgramView

_METHODS = frozenset({"size", "stride", "dim", "storage_offset"})
#: How a prefixed source reads its object: its length, its rank, or the object itself.
_PREFIXES: dict[str, Callable[[Any], Any]] = {
    "len:": len,
    "ndim:": lambda value: value.dim(),
    OBJECT_PREFIX: lambda value: value,
    CLASS_PREFIX: class_name,
    DISPATCH_PREFIX: dispatch_keys_seen,
    **TENSOR_FACTS,
    "": lambda value: value,  # a size, a flag, a setting: the value itself
}
_Step = tuple[str, Any]


def receiver_of_frame(live: ProgramView, compiles: Sequence[Any]) -> Any:
    """The one ``self`` a frame's compiles were made for, while it lives; else None.

    Two modules of one class share their forward's entries: when the compiles saw different
    objects, which one a call passes is not known, and nothing is read.
    """
    return _only(obj for c in compiles if (obj := _of(live, c)) is not None)


def globals_of_frame(live: ProgramView, compiles: Sequence[Any]) -> Mapping[str, Any] | None:
    """The module globals the frame's compiles read (one dict for one code), or None."""
    ids = {c.torch_id for c in compiles}
    found: Mapping[str, Any] | None = _only(
        g for torch_id, g in live.handler.started_globals if torch_id in ids
    )
    return found


def _only(objects: Iterable[Any]) -> Any:
    """The one object (by identity) among these, or None when there are none or several."""
    found = {id(obj): obj for obj in objects}
    return next(iter(found.values())) if len(found) == 1 else None


def _of(live: ProgramView, compile_: Any) -> Any:
    """The compile's ``self``: read at its graph, else as it started (no graph to read at)."""
    for seen in (live.handler.receivers, live.handler.started_receivers):
        refs = [ref for torch_id, ref in seen if torch_id == compile_.torch_id]
        ref = refs[compile_.generation] if compile_.generation < len(refs) else None
        found = ref() if ref is not None else None
        if found is not None:
            return found
    return None


def program_reader(live: ProgramView, frame: str | int | None) -> ProgramReader:
    """Reads, at each prediction, the module the frame was compiled for and torch's state."""

    def read(sources: Sequence[str], call: Mapping[str, Any]) -> dict[str, Any]:
        values = read_ambient(sources, call)
        on_module, on_globals = _objects_read(tuple(sources))
        if not (on_module or on_globals):
            return values  # torch's state and the call's tensors only: no module to find
        compiles = frame_compiles(live.facts(), frame)
        receiver = receiver_of_frame(live, compiles) if on_module else None
        if receiver is not None:
            values.update(read_program(receiver, on_module))
        module_globals = globals_of_frame(live, compiles) if on_globals else None
        if module_globals is not None:
            values.update(read_globals(module_globals, on_globals))
        return values

    return read


def read_ambient(sources: Sequence[str], call: Mapping[str, Any]) -> dict[str, Any]:
    """Torch's global state now, and the dispatch keys of the tensors the call passes.

    Both as a call made now meets them: a prediction made inside ``torch.no_grad()`` or
    ``inference_mode()`` is for a call made there.
    """
    settings, tensors = _ambient_sources(tuple(sources))
    values: dict[str, Any] = {}
    if settings:
        state = global_state_now()
        values.update((source, state[name]) for source, name in settings if name in state)
    for source, key in tensors:
        tensor = call.get(key)
        if isinstance(tensor, torch.Tensor):
            values[source] = dispatch_keys_seen(tensor)
        elif key in call:  # given by its shape: like the recorded one, in this thread's state
            values[source] = KEYS_LIKE_RECORDED
    return values


_Pairs = tuple[tuple[str, str], ...]


@lru_cache(maxsize=256)
def _objects_read(sources: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sources read on the module (``L['self']...``), and those read on its globals."""
    return tuple(s for s in sources if RECEIVER in s), tuple(s for s in sources if _GLOBALS in s)


@lru_cache(maxsize=256)
def _ambient_sources(sources: tuple[str, ...]) -> tuple[_Pairs, _Pairs]:
    """(source, setting name) of the global settings; (source, object key) of dispatch keys."""
    settings = tuple(
        (s, s.removeprefix(GLOBAL_PREFIX)) for s in sources if s.startswith(GLOBAL_PREFIX)
    )
    tensors = tuple(
        (s, OBJECT_PREFIX + s.removeprefix(DISPATCH_PREFIX))
        for s in sources
        if s.startswith(DISPATCH_PREFIX)
    )
    return settings, tensors


def read_program(receiver: Any, sources: Iterable[str]) -> dict[str, Any]:
    """Each source under ``L['self']`` as ``receiver`` holds it now; unreadable ones left out.

    The module read is named under :data:`READ_FROM`: the answer assumes the call passes it
    (another module of the same class would be checked on its own state).
    """
    values: dict[str, Any] = {READ_FROM: f"{type(receiver).__name__} at {id(receiver):#x}"}
    values.update(_read_paths(receiver, sources, RECEIVER))
    return values


def read_globals(module_globals: Mapping[str, Any], sources: Iterable[str]) -> dict[str, Any]:
    """Each source under ``G`` as the frame's module globals hold it now (as torch reads it).

    A global the program changes between calls (``WIDTH = 6``) is read as a call now meets it.
    """
    return _read_paths(module_globals, sources, _GLOBALS)


_GLOBALS = "G["


def _read_paths(root: Any, sources: Iterable[str], start: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for source in sources:
        read = _reader(source, start)
        if read is None:
            continue
        try:
            values[source] = read(root)
        except Exception:  # noqa: BLE001, S112 - a path the object no longer has: not known
            continue
    return values


@lru_cache(maxsize=4096)
def _reader(source: str, start: str = RECEIVER) -> Callable[[Any], Any] | None:
    """A function of the root (``self``, or the globals) that reads ``source``; or None."""
    prefix = next((p for p in _PREFIXES if source.startswith(p)), "")
    path = source.removeprefix(prefix)
    if not path.startswith(start):
        return None
    try:
        steps = _steps(ast.parse(path, mode="eval").body)
    except (SyntaxError, ValueError):
        return None
    if steps is None:
        return None
    finish = _PREFIXES[prefix]
    return lambda receiver: finish(_follow(receiver, steps))


def _steps(node: ast.expr) -> list[_Step] | None:
    """``L['self']...`` as steps from the receiver; None for anything but such a path."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        if isinstance(node.value, ast.Name) and node.value.id == "L":
            return [] if node.slice.value == "self" else None
        if isinstance(node.value, ast.Name) and node.value.id == "G":  # from the globals
            return [("item", node.slice.value)]
        inner = _steps(node.value)
        return None if inner is None else [*inner, ("item", node.slice.value)]
    if isinstance(node, ast.Attribute):
        inner = _steps(node.value)
        return None if inner is None else [*inner, ("attribute", node.attr)]
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute):
        inner = _steps(node.func.value) if node.func.attr in _METHODS else None
        return None if inner is None else [*inner, ("call", node.func.attr)]
    return None


def _follow(value: Any, steps: list[_Step]) -> Any:
    for kind, name in steps:
        if kind == "item":
            value = value[name]
        elif kind == "attribute":
            value = getattr(value, name)
        else:
            value = getattr(value, name)()
    return value

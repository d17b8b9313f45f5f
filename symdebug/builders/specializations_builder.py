"""Specializations of one compile: sources whose value became a constant.

Three kinds of evidence: ``symbolic_shape_specialization`` events (a symbol replaced by a
constant), static dimensions of tensor inputs (``TENSOR_MATCH size=[8, None]``) and
specialized ints (``EQUALS_MATCH``).
"""

from __future__ import annotations

from symdebug.builders.compile_group import CompileEvents
from symdebug.model.types import Guard, Specialization
from symdebug.model.values import CompileId, Source
from symdebug.torchtext.frames import FrameReader
from symdebug.torchtext.guard_tree import GuardTree

#: Parameters and buffers are static by design; listing their dims would bury the inputs.
_STATE_SOURCES = ("._parameters[", "._buffers[", ".weight", ".bias")


def is_module_state(source: str) -> bool:
    """Whether a source names a module parameter or buffer."""
    return any(part in source for part in _STATE_SOURCES)


def _int_value(text: object) -> int | str:
    value = str(text)
    return int(value) if value.lstrip("-").isdigit() else value


def forcing_guards(guards: list[Guard], symbol: str, value: object) -> list[Guard]:
    """The guards that pinned ``symbol`` to ``value``.

    An exact equality first; else an equality on the symbol alone (``Eq(s27 - 1, 4)`` from
    ``h[:, t - 1]`` pins ``t`` as surely), before guards that only bound it (``s27 <= 8``).
    """
    mentioning = [guard for guard in guards if symbol in guard.symbols]
    exact = [
        g for g in mentioning if g.expr in (f"Eq({symbol}, {value})", f"Eq({value}, {symbol})")
    ]
    equal = [g for g in mentioning if g.expr.startswith("Eq(") and g.symbols == [symbol]]
    return exact or equal + [g for g in mentioning if g not in equal]


def _from_events(
    group: CompileEvents, guards: list[Guard], reader: FrameReader
) -> list[Specialization]:
    result: list[Specialization] = []
    for event in group.named("symbolic_shape_specialization"):
        body = event.body
        symbol, value = str(body.get("symbol", "")), _int_value(body.get("value"))
        forced = forcing_guards(guards, symbol, value)
        user = reader.user_frames(body.get("user_stack"))
        user_frame = (
            user[-1] if user else next((g.user_frame for g in forced if g.user_frame), None)
        )
        result.extend(
            Specialization(
                source=Source(source),
                value=value,
                compile_id=group.compile_id,
                guards=forced,
                user_frame=user_frame,
                reason=str(body.get("reason", "")),
                kind="size" if ".size()" in str(source) else "int",
            )
            for source in body.get("sources") or []
        )
    return result


def _from_tree(tree: GuardTree, compile_id: CompileId, reader: FrameReader) -> list[Specialization]:
    result: list[Specialization] = []
    for tensor in tree.tensors:
        if is_module_state(tensor.source):
            continue
        frame = reader.note_frame(tensor.note)
        result.extend(
            Specialization(
                Source.size(tensor.source, index),
                size,
                compile_id,
                user_frame=frame,
                reason="static",
            )
            for index, size in enumerate(tensor.sizes)
            if size is not None
        )
    for source, (value, note) in tree.ints.items():
        frame = reader.note_frame(note)
        result.append(
            Specialization(
                Source(source),
                value,
                compile_id,
                user_frame=frame,
                reason="equals_match",
                kind="int",
            )
        )
    return result


def build_specializations(
    group: CompileEvents, tree: GuardTree, guards: list[Guard], reader: FrameReader
) -> list[Specialization]:
    """All specializations of one compile, one per source."""
    seen: dict[str, Specialization] = {}
    from_tree = _from_tree(tree, group.compile_id, reader)
    for spec in _from_events(group, guards, reader) + from_tree:
        seen.setdefault(spec.source, spec)
    return list(seen.values())

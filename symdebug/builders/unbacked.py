"""Unbacked symbols of one compile: what made each one, and where.

Torch logs ``create_unbacked_symbol`` (symbol, value range, user line, framework stack) when
a value has no hint at compile time: the result of ``.item()`` (with
``capture_scalar_outputs``), the size of an op whose output size depends on the data
(``nonzero``, ``repeat_interleave`` with tensor counts, with
``capture_dynamic_output_shape_ops``), or an input size marked with ``mark_unbacked``.  The
ShapeEnv gives such symbols no source, so the event's framework stack says which it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from symdebug.builders.compile_group import CompileEvents
from symdebug.model.types import Frame, Symbol
from symdebug.model.values import CompileId, Source
from symdebug.torchtext.frames import FrameReader
from symdebug.torchtext.guard_tree import GuardTree

EVENT = "create_unbacked_symbol"
#: Torch's names of unbacked symbols: ints ``u0``, floats ``zuf0``.
UNBACKED_NAME = re.compile(r"^(?:u|zuf)\d+$")
MARKED = "an input size marked unbacked (mark_unbacked)"
#: Where Dynamo makes a fake tensor of an input: the symbol is one of its sizes.
_WRAPPING = "wrap_to_fake_tensor_and_record"
#: Fake-tensor implementations that return an unbacked value rather than a size.
_SCALAR_OPS = {"local_scalar_dense": "the result of .item()"}
#: Files whose innermost function names the op that made the size.
_OP_FILES = ("fake_impls.py", "_meta_registrations.py", "_refs/")
_DISPATCH = ("dispatch_to_op_implementations_dict", "wrapper", "meta_fn")


def is_unbacked(name: str) -> bool:
    """Whether a symbol name is one torch gives values with no hint (``u0``, ``zuf0``)."""
    return UNBACKED_NAME.match(name) is not None


def origin_of(frames: Iterable[Frame]) -> str:
    """What made an unbacked symbol, from its creation's torch frames (innermost first)."""
    for frame in frames:
        if frame.name == _WRAPPING:
            return MARKED
        if frame.name in _SCALAR_OPS:
            return _SCALAR_OPS[frame.name]
        if frame.name not in _DISPATCH and any(part in frame.filename for part in _OP_FILES):
            return f"the size of {frame.name.removesuffix('_tensor')}()"
    return ""


def _marked_sources(tree: GuardTree, symbols: list[Symbol]) -> list[Source]:
    """Symbolic input sizes no backed symbol names: the sizes marked unbacked, in order."""
    named = {source for symbol in symbols for source in symbol.sources}
    found = []
    for tensor in tree.tensors:
        for source, size in zip(tensor.size_sources, tensor.sizes, strict=True):
            if size is None and source not in named:
                found.append(source)
    return found


_RANGE = re.compile(r"\[(?P<lower>[^,]+), (?P<upper>[^\]]+)\]")


def _bound(text: str) -> int | str:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else text


def parse_range(text: Any) -> tuple[int | str, int | str] | None:
    """A logged value range (``[0, 3]``, ``[-int_oo, int_oo]``) as bounds."""
    match = _RANGE.search(str(text or ""))
    return (_bound(match["lower"]), _bound(match["upper"])) if match else None


def _new_symbol(name: str, compile_id: CompileId, body: Mapping[str, Any]) -> Symbol:
    value_range = parse_range(body.get("vr"))
    return Symbol(name, [], compile_id, range=value_range, state="unbacked")


_ASSERT = re.compile(r"Runtime assertion failed for expression (?P<expr>.+?) on node '")


def graph_asserts(payload: str | None) -> list[str]:
    """The expressions a Dynamo graph asserts at run time (its ``_assert_scalar`` nodes)."""
    return list(dict.fromkeys(m["expr"] for m in _ASSERT.finditer(payload or "")))


def _add_asserts(symbols: Iterable[Symbol], asserts: list[str]) -> None:
    for symbol in symbols:
        word = re.compile(rf"\b{symbol.name}\b")
        symbol.runtime_asserts = [expr for expr in asserts if word.search(expr)]


def describe_unbacked(
    symbols: list[Symbol], group: CompileEvents, tree: GuardTree, reader: FrameReader
) -> None:
    """Add the compile's unbacked symbols (the ShapeEnv lists none) with their origin."""
    by_name = {symbol.name: symbol for symbol in symbols}
    marked = _marked_sources(tree, symbols)
    for event in group.named(EVENT):
        name = str(event.body.get("symbol"))
        symbol = by_name.get(name)
        if symbol is None:
            symbol = by_name[name] = _new_symbol(name, group.compile_id, event.body)
            symbols.append(symbol)
        symbol.origin = origin_of(reader.innermost_torch_frames(event.body.get("stack")))
        if symbol.origin == MARKED and marked and not symbol.sources:
            symbol.sources.append(marked.pop(0))
    unbacked = [s for s in symbols if is_unbacked(s.name)]
    if unbacked:  # the graph's text is searched only where there is something to assert
        graph = group.last("dynamo_output_graph")
        _add_asserts(unbacked, graph_asserts(graph.payload if graph is not None else None))

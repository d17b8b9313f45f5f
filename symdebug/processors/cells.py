"""Show notebook cells as cells: ``Cell [3]``, not the kernel's temporary file name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from symdebug.model.types import Facts, Frame


def _frames(facts: Facts) -> Iterable[Frame]:
    for guard in facts.guards:
        yield from guard.user_stack
    for symbol in facts.symbols:
        if symbol.user_frame is not None:
            yield symbol.user_frame
    for spec in facts.specializations:
        if spec.user_frame is not None:
            yield spec.user_frame


def alias_files(facts: Facts, aliases: Mapping[str, str]) -> None:
    """Rename every frame, node and compile whose file is a known alias."""
    if not aliases:
        return
    for frame in _frames(facts):
        frame.filename = aliases.get(frame.filename, frame.filename)
    for node in facts.fx_nodes:
        node.filename = aliases.get(node.filename, node.filename)
    for compile_ in facts.compiles:
        compile_.filename = aliases.get(compile_.filename, compile_.filename)

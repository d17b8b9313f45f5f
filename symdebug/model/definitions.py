"""Frames of one name: a function defined again (a notebook cell re-run) is a new frame.

Torch gives each code object a frame id of its own, in the order it first sees them, and
``torch._dynamo.reset()`` starts the ids again in a new generation; so the newest definition
of a name is its frame with the highest ``(generation, frame id)``.  Answers are about that
one; the older definitions are kept apart and named by where they were defined.
"""

from __future__ import annotations

from collections.abc import Iterable

from symdebug.model.types import Compile

FrameKey = tuple[int, int]


def frame_key(compile_: Compile) -> FrameKey:
    """``(generation, frame id)``: one definition of one frame, ordered oldest first."""
    return (compile_.generation, compile_.frame_id)


def frame_label(compile_: Compile) -> str:
    """``score (frame 1, Cell [5]:1)``: a frame named by where its code was defined."""
    generation = f"@{compile_.generation}" if compile_.generation else ""
    where = f", {compile_.filename}:{compile_.lineno}" if compile_.filename else ""
    return f"{compile_.title or compile_.name} (frame {compile_.frame_id}{generation}{where})"


def firsts_by_frame(compiles: Iterable[Compile]) -> dict[FrameKey, Compile]:
    """The first compile of each frame definition, oldest definition first."""
    firsts: dict[FrameKey, Compile] = {}
    for compile_ in compiles:
        firsts.setdefault(frame_key(compile_), compile_)
    return dict(sorted(firsts.items()))


def definition_note(named: Iterable[Compile], chosen: Compile) -> list[str]:
    """What an answer for a name says when several frames have it: which one it is about."""
    older = [c for key, c in firsts_by_frame(named).items() if key != frame_key(chosen)]
    if not older:
        return []
    labels = "; ".join(frame_label(c) for c in older)
    return [
        f"{len(older) + 1} frames are named {chosen.name}: this answer is about the newest, "
        f"{frame_label(chosen)}; older: {labels} (frame=<id> asks about another)"
    ]

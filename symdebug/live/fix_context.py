"""A fix read with the fact it answers: what both the candidates and the rewrites need."""

from __future__ import annotations

from dataclasses import dataclass

from symdebug.live.changes import FrameRef
from symdebug.model.types import Fix, Frame
from symdebug.model.values import Source


@dataclass(frozen=True)
class FixContext:
    """A fix with the fact it answers: the frame, the input, the user line, the cause."""

    fix: Fix
    frame: FrameRef | None
    source: Source | None
    user_frame: Frame | None
    cause: str

"""What re-runs, sweeps and the live session read of a capture in this process.

:class:`~symdebug.live.live_capture.LiveCapture` owns the session and calls
:mod:`~symdebug.live.rerun` and :mod:`~symdebug.live.sweep`, which read the capture back;
they name it by these protocols, so none of them imports the capture (no import cycle,
not even for types).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from symdebug.facts_session import FactsSession
from symdebug.hooks.handler import CaptureHandler
from symdebug.model.types import Facts


class ProgramView(Protocol):
    """A capture as a re-run reads it: its facts, torch's cache order, its handler."""

    @property
    def handler(self) -> CaptureHandler:
        """The handler that records torch's events."""
        ...

    @property
    def session(self) -> FactsSession:
        """The session the capture fills."""
        ...

    def facts(self) -> Facts:
        """The facts of every event so far."""
        ...

    def lookup_order(self, frame: str | int | None = None) -> list[str] | None:
        """Entries of a frame in torch's current lookup order; None when not cached here."""
        ...

    def recording(self) -> AbstractContextManager[None]:
        """Record the compiles that happen in the block."""
        ...

    def code_object(self, compile_id: str) -> Any:
        """The code object a compile cached on, when it was captured here."""
        ...

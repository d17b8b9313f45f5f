"""Capture in this process: :func:`capture`, :func:`start` and :func:`stop`.

Also what only a live capture can do: torch's lookup order, re-running, sweeps, replays.

This package only names its public parts; each lives in a module of its own:
:class:`LiveCapture` (:mod:`~symdebug.live.live_capture`) owns everything live, and
records through a :class:`~symdebug.live.recorder.Recorder` (the handler on torch's trace
logger, the settings it changed, the facts it built); the :class:`LiveSession` it fills
(:mod:`~symdebug.live.session`) is an ordinary Session whose facts follow the capture;
:func:`capture`, :func:`start` and :func:`stop` are in :mod:`~symdebug.live.capturing`.
"""

from __future__ import annotations

from symdebug.live.capturing import capture, start, stop
from symdebug.live.live_capture import LiveCapture
from symdebug.live.recorder import attached
from symdebug.live.session import LiveSession

__all__ = ["LiveCapture", "LiveSession", "attached", "capture", "start", "stop"]

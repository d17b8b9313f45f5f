"""Capture: the handler on torch's structured trace logger that turns compiles into events.

This package produces events only (:mod:`symdebug.events`); :mod:`symdebug.live` attaches
it, builds the facts and answers what only a live capture can.
"""

from __future__ import annotations

from symdebug.capture.handler import CaptureHandler

__all__ = ["CaptureHandler"]

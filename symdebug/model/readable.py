"""Answers that read well at a prompt: a one-line ``repr``, the whole text in IPython.

A result's default dataclass ``repr`` dumps every field (8 to 20 KB for a prediction or an
explanation).  Classes assign these in their body (``__repr__ = short_repr``), which a
dataclass keeps, instead of inheriting them, which a dataclass would replace.
"""

from __future__ import annotations

from typing import Any


def short_repr(self: object) -> str:
    """``<Prediction: f: recompiles ...>``: the class and the first line of its text."""
    lines = str(self).splitlines()
    return f"<{type(self).__name__}: {lines[0] if lines else ''}>"


def pretty_text(self: object, printer: Any, cycle: bool) -> None:
    """IPython's display of the result at a prompt: its whole text."""
    printer.text(short_repr(self) if cycle else str(self))

"""A stack frame of the model: held by most facts, and by the hunt's rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Frame:
    """One stack frame: where code ran, with its source text."""

    filename: str
    lineno: int
    name: str
    line: str = ""

    def __str__(self) -> str:
        where = f"{self.filename}:{self.lineno} in {self.name}"
        return f"{where}\n    {self.line}" if self.line else where

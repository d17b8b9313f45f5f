"""What each line of a text holds, remembered: the compiles of a frame repeat most lines.

A recompile's guard tree and graph hold almost every line of the compile before it, so a
line's fact is worked out once and looked up after.  Facts are shared between the compiles
that hold the line: they must be immutable (tuples, frozen dataclasses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

Fact = TypeVar("Fact")

#: What :attr:`LineMemo.facts` answers for a line it does not hold (None is a fact too);
#: typed ``Any`` so that a loop's ``facts.get(line, UNSEEN)`` keeps the facts' type.
UNSEEN: Final[Any] = object()


class LineMemo(Generic[Fact]):
    """Each line's fact, in a plain dict emptied when it is full.

    A parser's loop reads ``memo.facts.get(line, UNSEEN)`` itself (no call per line) and
    calls :meth:`remember` for a line not seen before.
    """

    __slots__ = ("facts", "limit", "read")

    def __init__(self, read: Callable[[str], Fact], limit: int = 65536) -> None:
        self.facts: dict[str, Fact] = {}
        self.read, self.limit = read, limit

    def remember(self, line: str) -> Fact:
        """The fact of a line not seen before, now remembered."""
        if len(self.facts) >= self.limit:
            self.facts.clear()
        fact = self.facts[line] = self.read(line)
        return fact

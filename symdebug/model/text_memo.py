"""What each line (or small document) of a log holds, remembered: recompiles repeat them.

A recompile's guard tree, graph and wrapper hold almost every line of the compile before
it, and the same graph maps its kernels to the same nodes; so a text's fact is worked out
once and looked up after.  Facts are shared between the compiles that hold the text: they
must be immutable (tuples, frozen dataclasses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

Fact = TypeVar("Fact")

#: What :attr:`TextMemo.facts` answers for a text it does not hold (None is a fact too);
#: typed ``Any`` so that a loop's ``facts.get(line, UNSEEN)`` keeps the facts' type.
UNSEEN: Final[Any] = object()


#: Every memo made, so that :func:`forget` can empty them all.
_MEMOS: list[TextMemo[Any]] = []


class TextMemo(Generic[Fact]):
    """Each text's fact, in a plain dict emptied when it is full.

    Its ``limit`` bounds what it holds: a memo of long texts (a kernel's source, a
    signature, a provenance table) holds fewer of them.

    A parser's loop reads ``memo.facts.get(line, UNSEEN)`` itself (no call per line) and
    calls :meth:`remember` for a text not seen before; :meth:`get` does both.
    """

    __slots__ = ("facts", "limit", "read")

    def __init__(self, read: Callable[[str], Fact], limit: int = 65536) -> None:
        self.facts: dict[str, Fact] = {}
        self.read, self.limit = read, limit
        _MEMOS.append(self)

    def remember(self, text: str) -> Fact:
        """The fact of a text not seen before, now remembered."""
        if len(self.facts) >= self.limit:
            self.facts.clear()
        fact = self.facts[text] = self.read(text)
        return fact

    def get(self, text: str) -> Fact:
        """The fact of a text, remembered or worked out now."""
        fact = self.facts.get(text, UNSEEN)
        return self.remember(text) if fact is UNSEEN else fact


def forget() -> None:
    """Empty every memo: the next build reads each text anew (a benchmark's cold start)."""
    for memo in _MEMOS:
        memo.facts.clear()

"""What each line (or small document) of a log holds, remembered: recompiles repeat them.

A recompile's guard tree, graph and wrapper hold almost every line of the compile before
it, and the same graph maps its kernels to the same nodes; so a text's fact is worked out
once and looked up after.  Facts are shared between the compiles that hold the text: they
must be immutable (tuples, frozen dataclasses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

Fact = TypeVar("Fact")


#: Every memo made, so that :func:`forget` can empty them all.
_MEMOS: list[TextMemo[Any]] = []


class _Facts(dict[str, Fact]):
    """Each text's fact; one it does not hold is worked out and kept when asked for.

    Indexing (``facts[text]``) stays the dict's own C code for a text it holds, so a
    parser can look up every line of a text in one C loop (``map``, :meth:`TextMemo.all_of`).
    """

    __slots__ = ("limit", "read")

    def __init__(self, read: Callable[[str], Fact], limit: int) -> None:
        super().__init__()
        self.read, self.limit = read, limit

    def __missing__(self, text: str) -> Fact:
        if len(self) >= self.limit:
            self.clear()
        fact = self[text] = self.read(text)
        return fact


class TextMemo(Generic[Fact]):
    """Each text's fact, in a dict emptied when it is full.

    Its ``limit`` bounds what it holds: a memo of long texts (a kernel's source, a
    signature, a provenance table) holds fewer of them.
    """

    __slots__ = ("facts",)

    def __init__(self, read: Callable[[str], Fact], limit: int = 65536) -> None:
        self.facts: _Facts[Fact] = _Facts(read, limit)
        _MEMOS.append(self)

    def all_of(self, texts: list[str]) -> list[Fact]:
        """Each text's fact, in order: looked up with no Python step per text seen before."""
        return list(map(self.facts.__getitem__, texts))

    def get(self, text: str) -> Fact:
        """The fact of a text, remembered or worked out now."""
        return self.facts[text]


def forget() -> None:
    """Empty every memo: the next build reads each text anew (a benchmark's cold start)."""
    for memo in _MEMOS:
        memo.facts.clear()

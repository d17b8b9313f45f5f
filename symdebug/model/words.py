"""Counts said in words: ``1 compile``, ``2 compiles``, ``1 graph break`` (issue 32)."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one.

    Parameters
    ----------
    count
        How many.
    noun
        The singular: ``"compile"``, ``"graph break"``, ``"specialization"``.

    Returns
    -------
    str
        ``"1 compile"``, ``"0 compiles"``, ``"3 graph breaks"``.
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def totals(compiles: int, recompiles: int, guards: int) -> str:
    """A session's counts: ``1 compile, 0 recompiles, 1 guard``."""
    return ", ".join(
        [counted(compiles, "compile"), counted(recompiles, "recompile"), counted(guards, "guard")]
    )

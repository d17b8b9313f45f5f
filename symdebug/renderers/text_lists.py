"""The wire's lists of recompile reasons, each distinct text and each shared tail once.

Torch writes each recompile's reasons against every earlier cache entry, newest first: the
n-th recompile of a frame lists n reasons, n - 1 of them those of the recompile before.
Stored as they are, a frame's reasons grow with the square of its recompiles.  On the wire
each list is a chain of cells ``[text, rest]`` (``rest`` the cell of the list without its
first item, -1 at the end), and equal cells are one: a list that extends the previous one
by its first item costs one cell.  Any list reads back exactly, shared or not.  Which lists
are packed, and the end's mark, are the wire's (:mod:`symdebug.model.wire_format`).
"""

from __future__ import annotations

from typing import Any

from symdebug.model.wire_format import CHAIN_END, TEXT_LISTS


class Chains:
    """The texts and cells of the lists packed so far (``texts`` and ``cells`` on the wire)."""

    def __init__(self) -> None:
        self.texts: dict[str, int] = {}
        self.cells: dict[tuple[int, int], int] = {}
        #: Per field, the last list of each length packed, and its cell: a recompile's list
        #: is most often the previous one's with one reason more, first.
        self.last: dict[tuple[str, int], tuple[list[str], int]] = {}

    def pack(self, items: list[str], field: str = "") -> int:
        """The cell of a list (its first item and the rest), -1 for an empty one.

        A list that extends one packed before (of the same ``field``) by its first item
        costs one cell, not a walk over the whole list: the packing grows linearly.
        """
        before = self.last.get((field, len(items) - 1))
        if before is not None and items[1:] == before[0]:
            cell = self._cell(items[0], before[1])
        else:
            cell = CHAIN_END
            for item in reversed(items):
                cell = self._cell(item, cell)
        self.last[field, len(items)] = (items, cell)
        return cell

    def _cell(self, item: str, rest: int) -> int:
        text = self.texts.setdefault(item, len(self.texts))
        return self.cells.setdefault((text, rest), len(self.cells))


def pack_text_lists(document: dict[str, Any]) -> dict[str, Any]:
    """Replace each text list of :data:`TEXT_LISTS` by its cell (in place).

    Returns
    -------
    dict
        ``{"texts": [...], "cells": [[text, rest], ...]}``, for the wire's ``text_lists``.
    """
    chains = Chains()
    for key, fields in TEXT_LISTS.items():
        for record in document.get(key, []):
            for name in fields:
                record[name] = chains.pack(record[name], name)
    return {"texts": list(chains.texts), "cells": [list(cell) for cell in chains.cells]}


def unpack_text_lists(document: dict[str, Any], packed: dict[str, Any]) -> None:
    """Restore the text lists :func:`pack_text_lists` packed (in place)."""
    texts, cells = packed["texts"], packed["cells"]
    for key, fields in TEXT_LISTS.items():
        for record in document.get(key, []):
            for name in fields:
                record[name] = _items(record[name], texts, cells)


def _items(cell: int, texts: list[str], cells: list[list[int]]) -> list[str]:
    items = []
    while cell != CHAIN_END:
        text, cell = cells[cell]
        items.append(texts[text])
    return items

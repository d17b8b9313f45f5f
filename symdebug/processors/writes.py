"""What a pass sets on the facts, as a value: the pass computes it, the pipeline applies it.

A pass reads the facts and changes nothing of them (a list it sets is a new list): it
returns :class:`Writes`, which :func:`symdebug.pipeline.enrich` applies before the next pass
reads.  So the facts a pass was given can be given again (a live session's rebuild runs
the passes over each compile's facts as built), and what a pass writes can be checked
against what it declares (:data:`FIELDS` names every field it may declare).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import fields, is_dataclass
from itertools import repeat
from typing import get_args, get_origin, get_type_hints

from symdebug.model.types import Facts


class Writes:
    """Values of fields of fact objects (or of :class:`Facts` itself), a field at a time.

    Where two columns set the same field, the later one's value wins.
    """

    __slots__ = ("columns",)

    def __init__(self) -> None:
        #: (field name, objects, the value of each), aligned.
        self.columns: list[tuple[str, Sequence[object], Sequence[object]]] = []

    def set(self, name: str, items: Sequence[object], values: Sequence[object]) -> Writes:
        """Set field ``name`` of each of ``items`` to the value at the same position.

        Parameters
        ----------
        name
            A field of every item (``cause``).
        items
            Distinct objects of one kind: of one list of the facts (guards), or the facts
            themselves.
        values
            One value per item, in the same order.

        Returns
        -------
        Writes
            These writes, to set more.
        """
        if len(items) != len(values):
            raise ValueError(f"{len(values)} values of {name!r} for {len(items)} objects")
        self.columns.append((name, items, values))
        return self

    def put(self, item: object, name: str, value: object) -> Writes:
        """Set one field of one object: a whole list of the facts (``recompiles``)."""
        return self.set(name, (item,), (value,))

    def rows(
        self, names: Sequence[str], items: Sequence[object], rows: Iterable[Sequence[object]]
    ) -> Writes:
        """Set several fields of each item: ``rows`` holds one value per name, per item."""
        columns = list(zip(*rows, strict=True)) or [() for _ in names]
        for name, values in zip(names, columns, strict=True):
            self.set(name, items, values)
        return self

    def fields(self) -> frozenset[str]:
        """Each field set, as passes declare it: ``guards.cause``, ``recompiles``.

        A column's objects are of one kind, its first's (a pass sets a field of guards
        apart from the same field of symbols): the check reads one object per column.
        """
        return frozenset(
            _declared(name, type(items[0])) for name, items, _ in self.columns if items
        )

    def apply(self) -> None:
        """Set every value (the pipeline does, once the pass returned).

        Last set, first applied, where no field is set by two columns (then no order
        matters): a pass read last what it set last, which is then likelier still in the
        processor's cache (a third of the time, on a thousand compiles).
        """
        names = [name for name, _, _ in self.columns]
        if len(set(names)) < len(names):  # a field set twice: in order, the later wins
            for name, items, values in self.columns:
                deque(map(setattr, items, repeat(name), values), maxlen=0)
            return
        for name, items, values in reversed(self.columns):
            deque(map(setattr, reversed(items), repeat(name), reversed(values)), maxlen=0)


def _item_classes() -> dict[str, type]:
    """Each list of :class:`Facts` whose items are dataclasses, by name: the item class."""
    hints = get_type_hints(Facts)
    found: dict[str, type] = {}
    for item in fields(Facts):
        hint = hints[item.name]
        element = next(iter(get_args(hint)), None)
        if get_origin(hint) is list and isinstance(element, type) and is_dataclass(element):
            found[item.name] = element
    return found


_ITEM_CLASSES = _item_classes()
_LIST_OF_CLASS = {cls: name for name, cls in _ITEM_CLASSES.items()}

#: Every name a pass may declare: a field of the facts (a whole list: ``recompiles``) or
#: ``<list>.<field of its items>`` (``guards.cause``).
FIELDS = frozenset(f.name for f in fields(Facts)) | frozenset(
    f"{name}.{f.name}" for name, cls in _ITEM_CLASSES.items() for f in fields(cls)
)


def _declared(name: str, kind: type) -> str:
    """Field ``name`` of an object of class ``kind``, as passes declare it."""
    if kind is Facts:
        return name
    owner = _LIST_OF_CLASS.get(kind)
    if owner is None:  # a frame, a fix: shared by facts, never set in place
        raise TypeError(f"{name!r} set on a {kind.__name__}, which no list of the facts holds")
    return f"{owner}.{name}"

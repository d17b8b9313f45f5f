"""What a pass sets on the facts, as a value: the pass computes it, the pipeline applies it.

A pass reads the facts and changes nothing of them (a list it sets is a new list): it
returns :class:`Writes`, which :func:`symdebug.pipeline.enrich` applies before the next pass
reads.  So the facts a pass was given can be given again (a live session's rebuild runs
the passes over each compile's facts as built), and what a pass writes can be checked
against what it declares (:data:`FIELDS` names every field it may declare).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints

from symdebug.model.types import Facts


class Writes:
    """Values of fields of fact objects (or of :class:`Facts` itself), a group at a time.

    Where two groups set the same field, the later one's value wins.
    """

    __slots__ = ("groups",)

    def __init__(self) -> None:
        #: (field names, objects, one row of values per object), aligned; a group of one
        #: name holds the values themselves, not rows of one.
        self.groups: list[tuple[tuple[str, ...], Sequence[object], Sequence[object]]] = []

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
        return self._add((name,), items, values)

    def put(self, item: object, name: str, value: object) -> Writes:
        """Set one field of one object: a whole list of the facts (``recompiles``)."""
        return self.set(name, (item,), (value,))

    def rows(
        self, names: Sequence[str], items: Sequence[object], rows: Sequence[Sequence[object]]
    ) -> Writes:
        """Set several fields of each item: ``rows`` holds one value per name, per item."""
        return self._add(tuple(names), items, rows)

    def _add(
        self, names: tuple[str, ...], items: Sequence[object], values: Sequence[object]
    ) -> Writes:
        if len(items) != len(values):
            raise ValueError(f"{len(values)} values of {names} for {len(items)} objects")
        self.groups.append((names, items, values))
        return self

    def fields(self) -> frozenset[str]:
        """Each field set, as passes declare it: ``guards.cause``, ``recompiles``.

        A group's objects are of one kind, its first's (a pass sets a field of guards
        apart from the same field of symbols): the check reads one object per group.
        """
        return frozenset(
            _declared(name, type(items[0]))
            for names, items, _ in self.groups
            if items
            for name in names
        )

    def apply(self) -> None:
        """Set every value (the pipeline does, once the pass returned).

        Each object is visited once per group, all its fields of the group set together
        while it is in the processor's cache (a pass that set them in its own loop did the
        same).  Last group first, where no field is set by two groups (then no order
        matters): a pass read last what it set last, which is then likelier still cached.
        """
        names = [name for group in self.groups for name in group[0]]
        groups = self.groups if len(set(names)) < len(names) else reversed(self.groups)
        for fields_set, items, values in groups:
            _setter(fields_set)(items, values)


@cache
def _setter(names: tuple[str, ...]) -> Callable[[Sequence[object], Sequence[object]], None]:
    """A loop that sets ``names`` on each object from its row (from its value, for one name).

    Written out for the names, so each store is a plain attribute store: as fast as the
    pass's own ``guard.cause = ...`` in its loop, about twice ``setattr``'s speed.
    """
    if not all(name.isidentifier() for name in names):
        raise ValueError(f"not field names: {names}")
    targets = ", ".join(f"item.{name}" for name in names)
    row = "value" if len(names) == 1 else "row"
    stores = f"{targets} = {row}" if len(names) == 1 else f"({targets},) = row"
    source = (
        "def set_fields(items, values):\n"
        f"    for item, {row} in zip(reversed(items), reversed(values)):\n"
        f"        {stores}\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - our own text, of checked identifiers
    setter: Callable[[Sequence[object], Sequence[object]], None] = namespace["set_fields"]
    return setter


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

"""What a length check counts, as the compiles' own guards show it.

Torch words a failed length check the same for a list and a dict (``len(opts) == 1``), so
the check alone cannot tell which fix fits: one tensor instead of a list of tensors
(``pad_sequence``) raises on a dict, on a list of ints, on a list of pairs, or on a list
that holds a tensor and an int.  The guard tree can tell: a dict argument has ``TYPE_MATCH``
(``type(L['opts']) is dict``); an item that is a tensor has ``TENSOR_MATCH``
(``L['xs'][0]``) or is checked to be another tensor input (``L['x'] is L['xs'][0]``); an
item that is not has a type, value or int check of its own (``type(L['xs'][0]) is tuple``,
``L['xs'][1] == 1``).  ``pad_sequence`` also needs the items' sizes after the first to be
equal: the compiles' input sizes say whether they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Recompile

#: Types whose length a ``pad_sequence`` of tensors can stand in for.
_SEQUENCES = frozenset({"list", "tuple"})


def _type_name(compile_: Compile, source: str) -> str | None:
    """The type a compile's guards require of ``source`` (``dict``), if they check one."""
    head = f"type({source}) is "
    for check in compile_.value_checks:
        if check.code.startswith(head):
            return check.code[len(head) :]
    return None


def _item_pattern(source: str) -> re.Pattern[str]:
    """An item of ``source`` itself (``L['xs'][1]``), not a part of it (``L['xs'][1][0]``)."""
    return re.compile(re.escape(source) + r"\[\d+\](?![\[.\w])")


def _tensor_items(compile_: Compile, item: re.Pattern[str]) -> dict[str, str]:
    """Each item the compile checks as a tensor, with the tensor input whose sizes it has.

    An item that is another tensor input (``[x, x]``) has no ``TENSOR_MATCH`` of its own,
    only the check that it is that input (``L['x'] is L['xs'][0]``).
    """
    tensors = {str(check.source) for check in compile_.tensor_checks}
    found = {source: source for source in tensors if item.fullmatch(source)}
    for check in compile_.shape_checks:
        sides = check.code.split(" is ")
        held = [side for side in sides if side in tensors]
        if len(sides) == 2 and held:
            found.update((side, held[0]) for side in sides if item.fullmatch(side))
    return found


def _trailing_sizes(compile_: Compile, tensor: str) -> tuple[int | str, ...]:
    """The sizes of ``tensor`` after its first, as the compile saw them (symbols as names)."""
    sizes = {
        dim.source.dim: dim.value
        for dim in compile_.inputs
        if dim.source.tensor == tensor and dim.source.dim is not None
    }
    return tuple(sizes[index] for index in sorted(sizes) if index > 0)


def _other_items(compile_: Compile, item: re.Pattern[str], tensor_items: set[str]) -> set[str]:
    """The items the compile checks as something else: a type, a value, an int."""
    texts = [check.code for check in compile_.value_checks]
    texts += [str(dim.source) for dim in compile_.inputs]
    return {found for text in texts for found in item.findall(text)} - tensor_items


def _is_varargs(compile_: Compile, source: str) -> bool:
    """``*xs``: the caller passes separate tensors, no list it could stack."""
    varargs = compile_.signature.varargs if compile_.signature is not None else None
    return varargs is not None and source == f"L[{varargs!r}]"


def _stackable(compiles: list[Compile], item: re.Pattern[str]) -> bool:
    """Whether the items seen are tensors only, of one rank and equal fixed trailing sizes.

    ``pad_sequence`` pads the first dim only: it raises on ``(4, 8)`` beside ``(4, 16)``,
    and a symbolic trailing size may differ at the next call.
    """
    tails: set[tuple[int | str, ...]] = set()
    for compile_ in compiles:
        held = _tensor_items(compile_, item)
        if _other_items(compile_, item, set(held)):
            return False
        tails.update(_trailing_sizes(compile_, tensor) for tensor in held.values())
    if len(tails) != 1:
        return False  # no tensor item, or items of different shapes
    return all(isinstance(size, int) for size in next(iter(tails)))


def _container(compiles: Iterable[Compile], source: str) -> str:
    found = list(compiles)
    types = {name for c in found if (name := _type_name(c, source)) is not None}
    if types and not types <= _SEQUENCES:
        return "dict" if any("dict" in name.lower() for name in types) else ""
    if any(_is_varargs(c, source) for c in found):
        return ""
    return "tensors" if _stackable(found, _item_pattern(source)) else ""


def length_container(recompile: Recompile, index: FactIndex) -> str:
    """``"dict"``, ``"tensors"`` (a list or tuple that ``pad_sequence`` stacks) or ``""``.

    Read from the entry that failed and from the recompile itself: a list that was empty
    holds no tensor to see until the call that filled it.
    """
    if not recompile.sources:
        return ""
    ids = (recompile.failed_entry, recompile.compile_id)
    compiles = (index.compile[cid] for cid in ids if cid in index.compile)
    return _container(compiles, recompile.sources[0])

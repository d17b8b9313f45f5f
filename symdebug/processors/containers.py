"""What a length check counts, as the compiles' own guards show it.

Torch words a failed length check the same for a list and a dict (``len(opts) == 1``), so
the check alone cannot tell which fix fits: one tensor instead of a list of tensors
(``pad_sequence``) crashes on a dict, or on a list of ints.  The guard tree can: a dict
argument has ``TYPE_MATCH`` (``type(L['opts']) is dict``), and a list holding tensors has
``TENSOR_MATCH`` on its items (``L['xs'][0]``) or checks that an item is a tensor input.
"""

from __future__ import annotations

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


def _holds_tensors(compile_: Compile, source: str) -> bool:
    """Whether the compile checks a tensor that is an item of ``source``.

    An item that is another tensor input (``[x, x]``) has no ``TENSOR_MATCH`` of its own,
    only the check that it is that input (``L['x'] is L['xs'][0]``).
    """
    item = f"{source}["
    tensors = {check.source for check in compile_.tensor_checks}
    if any(tensor.startswith(item) for tensor in tensors):
        return True
    pairs = (check.code.split(" is ") for check in compile_.shape_checks)
    return any(
        len(sides) == 2
        and any(side.startswith(item) for side in sides)
        and any(side in tensors for side in sides)
        for sides in pairs
    )


def _container(compiles: Iterable[Compile], source: str) -> str:
    found = list(compiles)
    types = {name for c in found if (name := _type_name(c, source)) is not None}
    if types and not types <= _SEQUENCES:
        return "dict" if any("dict" in name.lower() for name in types) else ""
    return "tensors" if any(_holds_tensors(c, source) for c in found) else ""


def length_container(recompile: Recompile, index: FactIndex) -> str:
    """``"dict"``, ``"tensors"`` (a list or tuple holding tensors) or ``""`` (not known).

    Read from the entry that failed and from the recompile itself: a list that was empty
    holds no tensor to see until the call that filled it.
    """
    if not recompile.sources:
        return ""
    ids = (recompile.failed_entry, recompile.compile_id)
    compiles = (index.compile[cid] for cid in ids if cid in index.compile)
    return _container(compiles, recompile.sources[0])

"""Marks on a tensor's dims, as the user would make them before a call.

``torch._dynamo.mark_static`` leaves ``_dynamo_static_indices`` on the tensor, and
``mark_dynamic`` ``_dynamo_dynamic_indices`` (``torch/_dynamo/decorators.py``); no API takes
a mark back, so removing one edits that set.
"""

from __future__ import annotations

from typing import Any

_TAKEN_BACK = {
    "unmark_static": "_dynamo_static_indices",
    "unmark_dynamic": "_dynamo_dynamic_indices",
}


def mark(function: str, tensor: Any, dim: int) -> None:
    """``torch._dynamo.<function>(tensor, dim)``, or take back a ``mark_static``."""
    import torch

    if function in _TAKEN_BACK:
        marked = getattr(tensor, _TAKEN_BACK[function], None)
        if marked is not None:
            marked.discard(dim)
        return
    marker = {
        "maybe_mark_dynamic": torch._dynamo.maybe_mark_dynamic,
        "mark_dynamic": torch._dynamo.mark_dynamic,
        "mark_unbacked": torch._dynamo.decorators.mark_unbacked,
    }[function]
    marker(tensor, dim)


def is_module(value: Any) -> bool:
    """Whether ``value`` is an ``nn.Module`` (a compiled module's call is bound to one)."""
    import torch

    return isinstance(value, torch.nn.Module)

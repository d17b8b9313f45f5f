"""Dynamo's cache entries for a code object (``torch/_dynamo/eval_frame.py:385``)."""

from __future__ import annotations

from typing import Any


def cache_order(code: Any) -> list[str]:
    """Compile ids of the entries cached on ``code``, in lookup (most recently used) order."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list

    try:
        return [str(entry.compile_id) for entry in _debug_get_cache_entry_list(code)]
    except (TypeError, RuntimeError):
        return []

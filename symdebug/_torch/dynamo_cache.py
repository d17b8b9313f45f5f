"""Dynamo's cache: entries of a code object, lookups of a call, settings of a miss.

Entries: ``torch/_dynamo/eval_frame.py:385``; what a miss does: ``convert_frame.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def cache_order(code: Any) -> list[str]:
    """Compile ids of the entries cached on ``code``, in lookup (most recently used) order."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list

    try:
        return [str(entry.compile_id) for entry in _debug_get_cache_entry_list(code)]
    except (TypeError, RuntimeError):
        return []


def miss_settings() -> dict[str, Any]:
    """The Dynamo settings that decide a cache miss: recompile limit and error suppression.

    ``convert_frame.py:1986`` runs the frame eagerly once a code object holds
    ``recompile_limit`` entries; ``convert_frame.py:2401`` skips a frame for good when a
    compile error is suppressed.
    """
    from torch._dynamo import config

    return {
        "recompile_limit": int(config.recompile_limit),
        "suppress_errors": bool(config.suppress_errors),
    }


@contextmanager
def cache_lookups() -> Iterator[list[bool]]:
    """Each cache lookup of the block: True for a hit, False for a miss, in call order.

    Dynamo calls the guard-complete hook after every lookup (``eval_frame.c``); a frame
    torch skipped for good is never looked up, so no value means it ran eagerly.
    """
    from torch._C._dynamo.eval_frame import set_guard_complete_hook

    seen: list[bool] = []
    previous: Any = None

    def hook(cache_hit: bool) -> bool:
        seen.append(bool(cache_hit))
        return bool(previous(cache_hit)) if previous is not None else cache_hit

    previous = set_guard_complete_hook(hook)
    try:
        yield seen
    finally:
        set_guard_complete_hook(previous)

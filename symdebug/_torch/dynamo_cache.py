"""Dynamo's cache: entries of a code object, lookups of a call, settings of a miss.

Entries: ``torch/_dynamo/eval_frame.py:385``; what a miss does: ``convert_frame.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from typing import Any

from symdebug._torch.running import resolved, running_release


def cache_order(code: Any) -> list[str]:
    """Compile ids of the entries cached on ``code``, in lookup (most recently used) order."""
    code = code.__code__ if callable(code) else code  # a function: its code, as torch's own
    try:
        return [_id_text(entry.compile_id) for entry in _entry_list()(code)]
    except (TypeError, RuntimeError):
        return []


@cache
def _entry_list() -> Callable[[Any], list[Any]]:
    """Torch's reader of a code object's cache entries, imported once.

    Every prediction reads the order, and an import statement costs a microsecond each time.
    """
    found: Callable[[Any], list[Any]] = resolved(running_release().cache_entries.entry_list)
    return found


@lru_cache(maxsize=4096)
def _id_text(compile_id: Any) -> str:
    """``0/1`` for torch's ``CompileId`` (frozen, so its text never changes)."""
    return str(compile_id)


def miss_settings() -> dict[str, Any]:
    """The Dynamo settings that decide a cache miss: recompile limits, error suppression, stance.

    ``convert_frame.py:1986`` runs the frame eagerly once a code object holds
    ``recompile_limit`` entries; ``convert_frame.py:2401`` skips a frame for good when a
    compile error is suppressed.
    """
    from torch._dynamo import config

    stance = resolved(running_release().cache_entries.stance)
    return {
        "recompile_limit": int(config.recompile_limit),
        "accumulated_recompile_limit": int(config.accumulated_recompile_limit),
        "suppress_errors": bool(config.suppress_errors),
        # ``torch.compiler.set_stance``: ``eval_frame._stance`` (private; reassigned on change).
        "stance": str(stance.stance),
        "skip_guard_eval_unsafe": bool(stance.skip_guard_eval_unsafe),
    }


@contextmanager
def cache_lookups() -> Iterator[list[bool]]:
    """Each cache lookup of the block: True for a hit, False for a miss, in call order.

    Dynamo calls the guard-complete hook after every lookup (``eval_frame.c``); a frame
    torch skipped for good is never looked up, so no value means it ran eagerly.
    """
    set_guard_complete_hook = resolved(running_release().cache_entries.guard_complete_hook)
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

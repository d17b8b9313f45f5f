"""Range checks (``2 <= x.size()[0] <= 4096``): parse them, and find the guard behind a bound."""

from __future__ import annotations

import re
from functools import lru_cache

from symdebug.model.types import Guard

_RANGE = re.compile(r"^(?:(?P<lower>-?\d+) <= )?(?P<source>[^<>=]+?)(?: <= (?P<upper>-?\d+))?$")


@lru_cache(maxsize=4096)
def parse_range(code: str) -> tuple[str, int | None, int | None] | None:
    """``(source, lower, upper)`` of a range check, or None if ``code`` is not one.

    Remembered: a frame's recompiles repeat the reasons of its earlier entries.
    """
    match = _RANGE.match(code.strip())
    if match is None or not (match["lower"] or match["upper"]):
        return None
    lower = int(match["lower"]) if match["lower"] else None
    upper = int(match["upper"]) if match["upper"] else None
    return match["source"].strip(), lower, upper


def _names(guard: Guard) -> set[str]:
    return set(guard.sources) | {s.stripped for s in guard.sources}


def bound_guard(guards: list[Guard], source: str, bound: int, lower: bool) -> Guard | None:
    """The guard that set this bound: ``s77 > 4`` for a lower bound 5, ``s77 <= 4096`` for 4096."""
    candidates = (bound - 1, bound) if lower else (bound, bound + 1)
    for number in candidates:
        for guard in guards:
            if source in _names(guard) and re.search(rf"(?<![\d.]){number}(?!\d)", guard.expr):
                return guard
    return None

"""What to change: one entry per distinct fix, with the recompiles it would remove.

Each recompile's best fix (its first) speaks for it, and recompiles whose best fixes are
the same code are one change: the overview leads with these, not with a copy of the same
fix on every recompile.  Most recompiles first; among equals, the earliest.
"""

from __future__ import annotations

from typing import TypeVar

from symdebug.model.types import Change, Facts
from symdebug.processors.writes import Writes

_T = TypeVar("_T")


def collect_changes(facts: Facts) -> Writes:
    """``facts.changes``: the distinct best fixes of the recompiles, most removed first."""
    grouped: dict[str, Change] = {}
    for recompile in facts.recompiles:
        if not recompile.fixes:
            continue
        best = recompile.fixes[0]
        change = grouped.setdefault(best.code, Change([best]))
        change.recompiles.append(recompile.compile_id)
        _add_once(change.causes, recompile.cause)
        if recompile.user_frame is not None:
            _add_once(change.lines, recompile.user_frame)
    ordered = sorted(grouped.values(), key=lambda change: -len(change.recompiles))
    return Writes().put(facts, "changes", ordered)


def _add_once(items: list[_T], item: _T) -> None:
    if item not in items:
        items.append(item)

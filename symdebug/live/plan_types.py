"""The fix plan the user holds: what the search measured, applied as a block, as text and code.

Its fields are a :class:`~symdebug.live.trials.PlanRecord`, which the plan's text
(:mod:`symdebug.live.fix_plan_text`) reads: so the text needs nothing of this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from symdebug.live.apply_changes import changes_applied
from symdebug.live.changes import settings_of
from symdebug.live.fix_plan_text import plan_code, plan_text
from symdebug.live.trials import PlanRecord
from symdebug.model.readable import pretty_text, short_repr


@dataclass
class FixPlan(PlanRecord):
    """The verified changes for a workload, with the compiles before and after.

    Attributes
    ----------
    changes
        Every verified change (settings, marks, rewrites), in the order to apply them.
    settings
        The changes' torch settings, ``{dotted torch config name: value}``.
    before, after
        Compiles per frame without and with the changes.
    errors_before, errors_after
        What raised (the workload, failed compiles) without and with them.
    verified
        True when the replay with the changes had fewer compiles, no new error, and
        outputs equal to the unchanged run's (``allclose``).
    outputs_note
        Why outputs were not compared, when they were not.
    tried
        Every candidate replayed, in order, with what it measured.
    not_tried
        The fixes no replay could apply, each with why.
    """

    @property
    def settings(self) -> dict[str, Any]:
        """The verified changes' torch settings."""
        return settings_of(tuple(self.changes))

    @contextmanager
    def applied(self) -> Iterator[None]:
        """Apply every verified change for the block (code swapped in); undo all after."""
        with changes_applied(tuple(self.changes)):
            yield

    def code(self) -> str:
        """The changes as the user would write them, with the diff of each rewrite."""
        return plan_code(self)

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        return plan_text(self)

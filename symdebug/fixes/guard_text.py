"""A guard as Python in the user's names: stored by a pass, said by every view.

``processors/guard_names.py`` stores it (``Guard.user_expr``); ``why()``, the budget's text
and the summary say it beside torch's own text, as torch's logs print it.
"""

from __future__ import annotations

from collections.abc import Mapping

from symdebug.fixes.fix_code import python_expression
from symdebug.model.names import INTERNAL, user_name
from symdebug.model.types import Guard


def guard_text(guard: Guard, names: Mapping[str, str]) -> str:
    """A guard as Python in the user's names, or ``""`` where some symbol has no such name.

    Parameters
    ----------
    guard
        A guard, with its symbols and the source each stands for.
    names
        A wrapper frame's inputs by the user's names (``{"L['args'][0]": "x"}``), or empty.

    Returns
    -------
    str
        ``x.shape[0] * y.shape[0] != 18`` for ``Ne(s17*s77, 18)``; ``""`` for a guard
        without symbols, or one on an unbacked ``u0`` or on Dynamo's own names.
    """
    if not guard.symbols or len(guard.symbols) != len(guard.sources):
        return ""
    spelled = {
        sym: user_name(src, names) for sym, src in zip(guard.symbols, guard.sources, strict=True)
    }
    python = python_expression(guard.expr, spelled) or ""
    return "" if any(mark in python for mark in INTERNAL) else python


def guard_said(guard: Guard, python: str | None = None) -> str:
    """The guard in the user's names with torch's text beside it, to match torch's logs.

    Parameters
    ----------
    guard
        A guard.
    python
        Its Python form; ``guard.user_expr`` when not given.

    Returns
    -------
    str
        ``x.shape[0] > 4  (torch: s77 > 4)``, or torch's text alone without a Python form.
    """
    said = guard.user_expr if python is None else python
    return f"{said}  (torch: {guard.expr})" if said and said != guard.expr else guard.expr

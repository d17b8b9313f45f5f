"""Fixes as text lines: code, kind, what a replay showed, what it does (``why``, summary)."""

from __future__ import annotations

from symdebug.model.types import Fix


def verification(fix: Fix) -> str:
    """``not tried``, ``verified: <effect>`` or ``failed: <effect>``: what a replay showed."""
    if fix.verified is None:
        return "not tried"
    word = "verified" if fix.verified else "failed"
    return f"{word}: {fix.effect}" if fix.effect else word


def fix_lines(fix: Fix, indent: str = "  ", *, explained: bool = True) -> list[str]:
    """A fix as text lines: its code, its kind and what a replay showed, then what it does.

    Parameters
    ----------
    fix
        The fix.
    indent
        Put before every line.
    explained
        Whether to add the explanation (a summary leaves it to ``why``).

    Returns
    -------
    list of str
        ``fix: <code>  [<kind>; <verification>]`` (code of several lines under it), then
        ``# <explanation>``.
    """
    needs = f"; torch {fix.needs}+" if fix.needs else ""
    status = f"[{fix.kind}{needs}; {verification(fix)}]"
    code = fix.code.splitlines() or [""]
    if len(code) == 1:
        lines = [f"{indent}fix: {code[0]}  {status}"]
    else:
        lines = [f"{indent}fix: {status}", *(f"{indent}    {line}" for line in code)]
    if fix.explanation and explained:
        lines.append(f"{indent}    # {fix.explanation}")
    return lines

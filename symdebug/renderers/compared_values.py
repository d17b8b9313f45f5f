"""Strings a program compared (``mode == 'secret-token-123'``), hidden from redacted views.

A value check bakes the string into the graph, and the same string is then quoted by torch's
recompile reasons, by the compiles' ``recompile_reasons`` and by the fixes' texts and
explanations ("another value than the compile saw ('secret-token-123')").  Redaction finds each
string compared with ``==`` or ``!=`` anywhere in the document, source lines included, and hides
every quoted occurrence of it, wherever it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

HIDDEN = "(redacted)"
#: A one-line Python string literal in single or double quotes (escapes allowed).
_LITERAL = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
_COMPARED = re.compile(rf"(?:==|!=) ?(?P<literal>{_LITERAL})")


def _collect(value: dict[str, Any] | list[Any], found: set[str]) -> None:
    """Add the literals compared in the strings of ``value`` (keys are the document's own)."""
    for item in value.values() if isinstance(value, dict) else value:
        if isinstance(item, str):
            # A cheap test before the regex: ``== 'a'`` or ``!="b"`` is in the text.
            if "= '" in item or "='" in item or '= "' in item or '="' in item:
                found.update(m["literal"][1:-1] for m in _COMPARED.finditer(item))
        elif isinstance(item, dict | list):
            _collect(item, found)


def compared_strings(document: Any) -> set[str]:
    """The text of each non-empty string literal compared with ``==`` or ``!=`` in ``document``."""
    found: set[str] = set()
    _collect([document], found)
    found.discard("")  # '' hides nothing
    return found


def _quoted(strings: set[str]) -> re.Pattern[str]:
    """Any of ``strings`` in single or double quotes, the longest first."""
    texts = sorted(strings, key=len, reverse=True)
    forms = [f"{quote}{re.escape(text)}{quote}" for text in texts for quote in ("'", '"')]
    return re.compile("|".join(forms))


def hide_compared(document: Any, strings: set[str]) -> Any:
    """``document`` (changed in place where it is a list or dict) with each quoted string hidden.

    Parameters
    ----------
    document
        A JSON-like value (a session document, or one string).
    strings
        The strings to hide, as :func:`compared_strings` gives them.

    Returns
    -------
    Any
        The same value with every ``'string'`` and ``"string"`` written ``(redacted)``.
    """
    if not strings:
        return document
    holder = [document]
    _hide(holder, _quoted(strings))
    return holder[0]


def hider(strings: set[str]) -> Callable[[Any], Any]:
    """:func:`hide_compared` of ``strings`` as one function, its pattern made once.

    A big session is redacted a record at a time: the pattern of its strings is not made
    again for each of a million guards.
    """
    if not strings:
        return lambda value: value
    pattern = _quoted(strings)

    def hide(value: Any) -> Any:
        holder = [value]
        _hide(holder, pattern)
        return holder[0]

    return hide


def _hide(value: dict[str, Any] | list[Any], pattern: re.Pattern[str]) -> None:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, str):
            if "'" in item or '"' in item:
                value[key] = pattern.sub(HIDDEN, item)  # type: ignore[index]
        elif isinstance(item, dict | list):
            _hide(item, pattern)

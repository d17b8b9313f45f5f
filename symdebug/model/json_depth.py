"""Where a JSON text nests too deep, found without parsing it (which would recurse).

Used only when a parser gave up on the nesting: it names the place for the error.
"""

from __future__ import annotations

import json
import re

#: A key (a string and its colon), any other string, or a bracket or comma.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"\s*:|"(?:[^"\\]|\\.)*"|[\[\]{},]')


def too_deep(text: str | bytes, limit: int) -> str | None:
    """The JSON path of the first array or object nested deeper than ``limit``, or None.

    Parameters
    ----------
    text
        A JSON document (it need not be valid past that point).
    limit
        How many arrays and objects may nest.

    Returns
    -------
    str or None
        ``guards[0][0][0]``, the path of the container that goes past ``limit``.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    path: list[str | int] = []  # one key or index per open container
    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in "[{":
            if len(path) >= limit:
                return _said(path)
            path.append(0 if mark == "[" else "")
        elif mark in "]}":
            path = path[:-1]
        elif mark == "," and path and isinstance(path[-1], int):
            path[-1] += 1
        elif mark.endswith(":") and path:
            path[-1] = _key(mark)
    return None


def _key(token: str) -> str:
    """The text of a key token (``"expr" :``)."""
    try:
        return str(json.loads(token.rstrip()[:-1]))
    except ValueError:
        return token


def _said(path: list[str | int]) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out or "(document)"

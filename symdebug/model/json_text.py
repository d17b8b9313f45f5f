"""JSON out and in: orjson for speed, the standard library for what orjson refuses.

A log can hold what orjson will not write or read back but Python's ``json`` (the reader's
fallback) accepts: a lone surrogate (how torch writes a path that is not UTF-8) and an integer
past 64 bits.  A document holding one is written by ``json`` instead, surrogates escaped as
unicode escapes (valid JSON that browsers read) and NaN or Infinity as ``null`` (as orjson writes
them); it reads back the same way.
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson


def dumps(value: Any, *, sort_keys: bool = False) -> bytes:
    """``value`` as compact UTF-8 JSON (keys sorted when asked)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else None)
    except TypeError:  # a surrogate or a huge integer; anything else fails below as well
        text = json.dumps(
            _finite(value), sort_keys=sort_keys, separators=(",", ":"), allow_nan=False
        )
        return text.encode()


def loads(text: str | bytes) -> Any:
    """Parse JSON; raises ``ValueError`` when it is none."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _finite(value: Any) -> Any:
    """A copy with NaN and the infinities as None, as orjson writes them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value

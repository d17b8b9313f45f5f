"""Symbol names in torch's printed expressions (``s0``, ``u3``): guards, sizes, kernels."""

from __future__ import annotations

import re
from functools import lru_cache

_SYMBOL = re.compile(r"\b[su]\d+\b")


def free_symbols(expr: str) -> list[str]:
    """Symbol names in a printed sympy expression, in order of appearance."""
    return list(_free_symbols(expr))


@lru_cache(maxsize=65536)
def _free_symbols(expr: str) -> tuple[str, ...]:
    """Remembered: recompiles repeat their guards' expressions."""
    return tuple(dict.fromkeys(_SYMBOL.findall(expr)))

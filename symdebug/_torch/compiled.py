"""What ``torch.compile`` returns, and the eager callable behind it."""

from __future__ import annotations

from typing import Any


def original_callable(compiled: Any) -> Any:
    """The eager function or module a ``torch.compile`` result wraps (itself if not one)."""
    module = getattr(compiled, "_orig_mod", None)  # OptimizedModule
    if module is not None:
        return module
    return getattr(compiled, "_torchdynamo_orig_callable", None) or getattr(
        compiled, "__wrapped__", compiled
    )


def is_compile_result(value: Any) -> bool:
    """True for what ``torch.compile`` returns (a wrapped function or an ``OptimizedModule``)."""
    return hasattr(value, "_torchdynamo_orig_callable")

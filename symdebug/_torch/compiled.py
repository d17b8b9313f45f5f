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


def recompile_limit() -> int:
    """How many entries a frame may cache before Dynamo stops compiling it."""
    import torch._dynamo.config as dynamo_config

    return int(getattr(dynamo_config, "recompile_limit", 8))

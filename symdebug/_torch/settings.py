"""Compiler settings that capture changes for its duration, and restores exactly."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch


@contextmanager
def compile_caches_disabled() -> Iterator[None]:
    """Turn off every compile cache; restore the previous value on exit.

    Cache hits replay guards from stored expressions, so their provenance points at
    ``autograd_cache.py``/``codecache.py`` instead of the user's code.
    """
    config = torch.compiler.config
    previous = config.force_disable_caches
    config.force_disable_caches = True
    try:
        yield
    finally:
        config.force_disable_caches = previous

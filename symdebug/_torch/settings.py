"""Compiler settings that capture changes for its duration, and restores exactly."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import torch

#: torch warns that the caches we turned off include profile-guided dynamism
#: (torch/_dynamo/pgo.py); that is what capture asked for, so the user need not see it.
PGO_WARNING = "dynamo_pgo force disabled by torch.compiler.config"


@contextmanager
def compile_caches_disabled() -> Iterator[None]:
    """Turn off every compile cache; restore the previous value on exit.

    Cache hits replay guards from stored expressions, so their provenance points at
    ``autograd_cache.py``/``codecache.py`` instead of the user's code.  The warning filters
    are the caller's again on exit (only torch's note about the caches is silenced inside).
    """
    config = torch.compiler.config
    previous = config.force_disable_caches
    config.force_disable_caches = True
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=PGO_WARNING, category=UserWarning)
            yield
    finally:
        config.force_disable_caches = previous


@contextmanager
def inductor_provenance_enabled() -> Iterator[None]:
    """Have Inductor log which FX nodes each kernel computes (``provenance_tracking_level``).

    The mapping reaches the trace as ``inductor_provenance_tracking_node_mappings``; it is
    the only record of kernel -> node on CPU, where kernels carry no origin comments.
    """
    from torch._inductor import config as inductor_config

    previous = inductor_config.trace.provenance_tracking_level
    inductor_config.trace.provenance_tracking_level = previous or 1
    try:
        yield
    finally:
        inductor_config.trace.provenance_tracking_level = previous

"""The torch release running in this process, and its section of the adapters' tables."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import torch

from symdebug._torch.releases import parse_version, release_of
from symdebug._torch.releases.sections import Release


def running_version() -> str:
    """``torch.__version__`` as torch writes it (``2.15.0+cu132``)."""
    return str(torch.__version__)


@cache
def running_release() -> Release:
    """The tables of the running torch (the nearest release symdebug knows)."""
    return release_of(parse_version(running_version()))


def resolved(where: str) -> Any:
    """The object a table names as ``module:attribute`` (``torch._dynamo.eval_frame:_stance``).

    Read each time (not kept): torch reassigns some of them (the stance on each change).
    """
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)


def missing_release(needs: str) -> str:
    """Why the running torch cannot apply what needs release ``needs``; ``""`` when it can."""
    wanted, running = parse_version(needs), parse_version(running_version())
    if wanted is None or running is None or running >= wanted:
        return ""
    return f"it needs torch {needs}; this process runs torch {running_version()}"

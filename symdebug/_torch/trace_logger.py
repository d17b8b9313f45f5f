"""Torch's structured trace logger (``torch._logging``): attach handlers, resolve strings.

torch 2.13 emits every structured event through ``trace_log`` (``torch.__trace``) and only
builds the records when that logger has at least one handler of its own
(``torch/_logging/_internal.py:1494``), so our handler must sit on it directly.
"""

from __future__ import annotations

import logging

import torch._logging.structured as _structured
from torch._logging import _internal


def trace_logger() -> logging.Logger:
    """The logger every ``trace_structured`` call writes to."""
    return _internal.trace_log


def interned_strings() -> dict[int, str]:
    """Id -> string for every string torch interned in this process.

    ``str`` events are emitted only the first time a filename is interned in the process,
    so a handler attached later must read the process-global table instead.
    """
    return {index: text for text, index in _structured.INTERN_TABLE.items()}

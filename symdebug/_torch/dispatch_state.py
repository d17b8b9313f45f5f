"""The thread's and the process's state that Dynamo's guards compare, read now.

``TENSOR_MATCH`` compares a tensor's dispatch keys with the thread's local include and
exclude sets applied (``torch/_dynamo/guards.py``, ``get_tensor_guard_code_part``; under
``inference_mode`` the same tensor has others), and ``___check_global_state()`` compares
``GlobalStateGuard``'s state (``torch/csrc/dynamo/guards.cpp``): grad mode, autocast, the
default dtype, deterministic algorithms, thread count.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import torch


def dispatch_keys_seen(tensor: torch.Tensor) -> str:
    """The tensor's dispatch keys as a ``TENSOR_MATCH`` made now prints them."""
    included = torch._C._dispatch_tls_local_include_set()
    excluded = torch._C._dispatch_tls_local_exclude_set()
    return str((torch._C._dispatch_keys(tensor) | included) - excluded)


def global_state_now() -> Mapping[str, Any]:
    """What ``___check_global_state()`` compares, as the guard tree prints it (read-only)."""
    return _parsed(str(torch._C._dynamo.guards.GlobalStateGuard().__getstate__()))


@lru_cache(maxsize=64)
def _parsed(text: str) -> Mapping[str, Any]:
    """Remembered: a program switches between few states (training, ``no_grad``)."""
    state = json.loads(text)
    return MappingProxyType(state if isinstance(state, dict) else {})

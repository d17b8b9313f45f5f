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


class KeysLikeRecorded(str):
    """The dispatch keys a tensor given by its shape shows now, as ``TENSOR_MATCH`` sees them.

    Compared with an entry's recorded keys (``==``), it takes the tensor to be like the
    recorded one and applies this thread's include and exclude sets: under
    ``inference_mode`` a tensor made outside it loses its autograd key, so an entry compiled
    outside fails.  Where the answer depends on the tensor itself (the recorded keys have no
    autograd key: an inference tensor, or a tensor seen under ``inference_mode``), comparing
    raises ``ValueError``: the check is not evaluated.
    """

    def __eq__(self, recorded: object) -> bool:
        included = torch._C._dispatch_tls_local_include_set().raw_repr()
        excluded = torch._C._dispatch_tls_local_exclude_set().raw_repr()
        return _shows_recorded(str(recorded), included, excluded)

    def __ne__(self, recorded: object) -> bool:
        return not self == recorded

    __hash__ = str.__hash__


#: How a failure shows what a tensor given by its shape was taken to show.
_KEYS_NOW = "the recorded keys in this thread's dispatch state (inference_mode, autocast)"


#: What a tensor given by its shape shows now, compared with each entry's recorded keys.
KEYS_LIKE_RECORDED = KeysLikeRecorded(_KEYS_NOW)


@lru_cache(maxsize=256)
def _shows_recorded(recorded: str, included: int, excluded: int) -> bool:
    """Whether a tensor with the recorded keys shows them under these thread-local sets.

    Remembered by the sets' raw bits: a program switches between few states.
    """
    if not any("Autograd" in name for name in _names(recorded)):
        raise ValueError("whether the tensor is an inference tensor")
    own = _key_set(recorded)
    tls = torch._C.DispatchKeySet
    return str((own | tls.from_raw_repr(included)) - tls.from_raw_repr(excluded)) == recorded


def _names(text: str) -> list[str]:
    inner = text.removeprefix("DispatchKeySet(").removesuffix(")")
    return [name.strip() for name in inner.split(",") if name.strip()]


@lru_cache(maxsize=256)
def _key_set(text: str) -> torch._C.DispatchKeySet:
    """``DispatchKeySet(CPU, AutogradCPU)`` as the set; ValueError for a name torch lacks."""
    found = torch._C.DispatchKeySet(torch._C.DispatchKey.Undefined)
    for name in _names(text):
        key = getattr(torch._C.DispatchKey, name, None)
        if key is None:
            raise ValueError(f"no dispatch key {name}")
        found = found | torch._C.DispatchKeySet(key)
    return found

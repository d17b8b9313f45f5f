"""Recompile reasons about what a tensor is or what state torch ran in, not about a size.

Torch 2.13 words them (``TensorCheck::check_verbose`` and ``GLOBAL_STATE`` in
``torch/csrc/dynamo/guards.cpp``)::

    tensor 'x' dtype mismatch. expected Float, actual Double
    tensor 'x' requires_grad mismatch. expected requires_grad=0
    tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, ...), actual ...(Meta, ...)
    tensor 'x' stride mismatch at index 1. expected 16, actual 1
    GLOBAL_STATE changed: grad_mode autocast(cpu)_enabled
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TENSOR = re.compile(
    r"tensor '(?P<tensor>.+?)' (?P<what>dtype|requires_grad|dispatch key set) mismatch\. "
    r"expected (?P<expected>.+?)(?:, actual (?P<actual>.+?))?\s*$"
)
_GLOBAL = re.compile(r"GLOBAL_STATE changed: (?P<what>.*)$")
_KEYS = re.compile(r"DispatchKeySet\((?P<first>[^,)]*)")

#: Torch's C++ dtype names, as a user writes them.
DTYPES = {
    "Float": "float32",
    "Double": "float64",
    "Half": "float16",
    "BFloat16": "bfloat16",
    "Long": "int64",
    "Int": "int32",
    "Short": "int16",
    "Char": "int8",
    "Byte": "uint8",
    "Bool": "bool",
    "ComplexFloat": "complex64",
    "ComplexDouble": "complex128",
}


@dataclass(frozen=True, slots=True)
class StateChange:
    """What changed: ``kind`` is the cause class (``dtype``, ``global_state``, ...)."""

    kind: str
    #: The tensor's name in torch's check (``x``), or ``""`` for global state.
    tensor: str = ""
    #: What the compile saw and what the call had (``float32``, ``float64``), as users say.
    before: str = ""
    after: str = ""
    #: For global state: each state torch found changed (``grad_mode``, ``autocast(cpu)_enabled``).
    states: tuple[str, ...] = ()


def state_change(text: str) -> StateChange | None:
    """The tensor metadata or global state a reason found changed, or None."""
    if (found := _GLOBAL.search(text)) is not None:
        return StateChange("global_state", states=tuple(found["what"].split()))
    found = _TENSOR.search(text)
    if found is None:
        return None
    what, expected, actual = found["what"], found["expected"], found["actual"] or ""
    if what == "dtype":
        return StateChange("dtype", found["tensor"], _dtype(expected), _dtype(actual))
    if what == "requires_grad":
        was = expected.rsplit("=", 1)[-1] == "1"
        return StateChange("requires_grad", found["tensor"], str(was), str(not was))
    return _dispatch_change(found["tensor"], expected, actual)


def _dtype(name: str) -> str:
    return DTYPES.get(name.strip(), name.strip().lower())


def _dispatch_change(tensor: str, expected: str, actual: str) -> StateChange:
    """Another backend key first (``CPU`` -> ``Meta``) is another device; else other keys."""
    was, now = _KEYS.search(expected), _KEYS.search(actual)
    if was is not None and now is not None and was["first"] != now["first"]:
        return StateChange("device", tensor, was["first"].lower(), now["first"].lower())
    return StateChange("dispatch_keys", tensor, expected, actual)


#: The words for each global state torch guards, as the user changes it.
STATE_WORDS = {
    "grad_mode": "grad mode (torch.no_grad() or torch.enable_grad())",
    "deterministic_algorithms": "torch.use_deterministic_algorithms",
    "default_dtype": "the default dtype (torch.set_default_dtype)",
    "torch_function": "torch function mode",
    "num_threads": "torch.set_num_threads",
}


def state_words(state: str) -> str:
    """A global state as users know it (``autocast(cpu)_enabled`` -> autocast on the CPU)."""
    if state.startswith("autocast("):
        device = state[len("autocast(") :].split(")", 1)[0]
        return f"autocast on {device} (torch.autocast({device!r}))"
    return STATE_WORDS.get(state, state)

"""Whether two runs' outputs are equal, and whether they can be compared at all."""

from __future__ import annotations

import pickle
from typing import Any

import torch
from torch.utils._pytree import tree_flatten

#: Leaves compared by value without a type of their own defining equality.
_PLAIN = (int, float, complex, str, bytes, bool, type(None))


def _leaves(value: Any) -> list[Any]:
    return list(tree_flatten(value)[0])


def _no_equality(leaf: Any) -> bool:
    """An object compared by identity only: two runs' copies are never equal."""
    if isinstance(leaf, (torch.Tensor, *_PLAIN)):
        return False
    equality: Any = type(leaf).__eq__
    return equality is object.__eq__


def comparable_outputs(value: Any) -> str:
    """Why ``value`` cannot be compared with another run's ("" when it can).

    A replay's outputs are sent from a child process: they must pickle, and an object that
    defines no equality is equal only to itself, so two runs would always "differ".
    """
    odd = next((leaf for leaf in _leaves(value) if _no_equality(leaf)), None)
    if odd is not None:
        kind = type(odd).__qualname__
        return f"the workload returns a {kind}, which has no equality of its own"
    try:
        pickle.dumps(value)
    except Exception as error:  # noqa: BLE001 - any failure means: not comparable
        return f"the workload's result cannot be copied between processes ({type(error).__name__})"
    return ""


def outputs_match(first: Any, second: Any) -> bool:
    """Whether two workloads' outputs are equal (tensors ``allclose``, the rest ``==``)."""
    leaves_a, spec_a = tree_flatten(first)
    leaves_b, spec_b = tree_flatten(second)
    if spec_a != spec_b:
        return False
    for a, b in zip(leaves_a, leaves_b, strict=True):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or not torch.allclose(a, b, rtol=1e-4, atol=1e-5):
                return False
        elif a != b:
            return False
    return True

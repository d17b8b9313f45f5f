"""Build real call arguments from shapes, like the recorded inputs (dtype, device, strides)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import torch

from symdebug.model.types import Compile, Signature, TensorMeta
from symdebug.predict.arguments import is_shape

_DTYPES = {str(v): v for v in vars(torch).values() if isinstance(v, torch.dtype)}


def _dtype(meta: TensorMeta | None) -> torch.dtype:
    return _DTYPES.get(meta.dtype, torch.float32) if meta else torch.float32


def _device(meta: TensorMeta | None) -> torch.device:
    text = meta.device if meta else ""
    if text.startswith("device(type="):
        text = text.split("'")[1]
    return torch.device(text or "cpu")


def make_tensor(shape: Sequence[int], meta: TensorMeta | None) -> torch.Tensor:
    """A tensor of ``shape`` with the recorded dtype, device, stride order and requires_grad.

    Floats are random; integer and bool tensors are ones, a value valid as an index, a
    token id or a mask.
    """
    dtype, device = _dtype(meta), _device(meta)
    order = list(range(len(shape)))
    if meta is not None and len(meta.stride) == len(shape):
        order = sorted(order, key=lambda d: -meta.stride[d])  # outermost (largest stride) first
    strides = [0] * len(shape)
    step = 1
    for dim in reversed(order):
        strides[dim] = step
        step *= max(int(shape[dim]), 1)
    # empty_strided, not a permuted view: a view input would make Dynamo guard on `._base`.
    tensor = torch.empty_strided(tuple(shape), tuple(strides), dtype=dtype, device=device)
    if dtype.is_floating_point or dtype.is_complex:
        tensor.copy_(torch.randn(tuple(shape), dtype=dtype, device=device))
    else:
        tensor.fill_(1)
    if meta is not None and meta.requires_grad and dtype.is_floating_point:
        tensor.requires_grad_(True)
    return tensor


def materialize(value: Any, base: str, metas: Mapping[str, TensorMeta]) -> Any:
    """Replace every shape inside ``value`` by a tensor like the one recorded at ``base``."""
    if is_shape(value):
        return make_tensor(tuple(value), metas.get(base))
    if isinstance(value, Mapping):
        return {k: materialize(v, f"{base}[{k!r}]", metas) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = [materialize(v, f"{base}[{i}]", metas) for i, v in enumerate(value)]
        return type(value)(items) if isinstance(value, list) else tuple(items)
    return value


def build_call(
    signature: Signature | None,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    metas: Mapping[str, TensorMeta],
    *,
    bound_first: bool = False,
) -> tuple[list[Any], dict[str, Any]]:
    """Real ``args, kwargs`` for a call given with shapes, named as the frame names them.

    ``bound_first``: a decorator's wrapper around a method holds the module first in
    ``*args``, so the call's positional arguments are recorded from its second item on.
    """
    names = list(signature.names[: signature.positional]) if signature else []
    if names and names[0] == "self":
        names = names[1:]
    varargs = signature.varargs if signature else None
    skipped = len(names) - int(bound_first)
    real_args = []
    for index, value in enumerate(args):
        base = (
            f"L[{names[index]!r}]" if index < len(names) else f"L[{varargs!r}][{index - skipped}]"
        )
        real_args.append(materialize(value, base, metas))
    known = set(signature.names) if signature else set(kwargs)
    varkw = signature.varkw if signature else None
    real_kwargs = {
        k: materialize(v, f"L[{k!r}]" if k in known else f"L[{varkw!r}][{k!r}]", metas)
        for k, v in kwargs.items()
    }
    return real_args, real_kwargs


def recorded_metas(compiles: Sequence[Compile]) -> dict[str, TensorMeta]:
    """Each input's tensor as the frame's compiles recorded it, the newest one winning.

    A wrapper's input is recorded where that call passed it (``L['args'][1]`` when given
    by position, ``L['kwargs']['input_ids']`` by keyword): the callee's name for it spells
    it both ways, so a call by keyword is built like an earlier call by position.
    """
    metas: dict[str, TensorMeta] = {}
    for compile_ in compiles:
        metas.update(compile_.tensors)
        names = compile_.callee.names if compile_.callee is not None else {}
        by_name = {name: metas[source] for source, name in names.items() if source in metas}
        for source, name in names.items():
            if source not in metas and name in by_name:
                metas[source] = by_name[name]
    return metas

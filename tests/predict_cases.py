"""A corpus of (function, new sizes) pairs: prediction must equal what torch then does.

Shared by the live test and by a subprocess that writes the same run to TORCH_TRACE
(``python tests/predict_cases.py OUT.json``).  Tensors are given by their shapes.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812

import symdebug


def branch(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def view_pairs(x):
    return x.view(-1, 2).sum(0)


def add(a, b):
    return a + b


def half_slice(x, y):
    return x.sum() + y[: x.shape[0] // 2].sum()


def loop(x, n):
    for _ in range(n):
        x = x + 1
    return x


def double(x):
    return x * 2


def double_again(x):
    return x * 2


def pair_sum(a, b):
    return a.sum() + b.sum()


def reduce_rows(x):
    return x.sum(0)


def relu_scale(x, w):
    return torch.relu(x) * w


def upsample(x):
    return F.interpolate(x, scale_factor=1.5, mode="nearest")


def stack_all(xs):
    return torch.cat([x.sum(0, keepdim=True) for x in xs]).sum()


def keyed(inputs, scale=2):
    return inputs["a"].sum() * scale + inputs["b"].mean()


def pinned(x):
    return x.view(8, -1)


Call = tuple[tuple[Any, ...], dict[str, Any]]


def call(*args: Any, **kwargs: Any) -> Call:
    return args, kwargs


@dataclass
class Case:
    name: str
    fn: Callable[..., Any]
    options: dict[str, Any]
    warmup: list[Call]
    probes: list[Call]
    config: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext
    requires_grad: bool = False
    marks: dict[int, int] = field(default_factory=dict)


def no_duck() -> contextlib.AbstractContextManager[Any]:
    return torch.fx.experimental._config.patch(use_duck_shape=False)


DYN = {"backend": "eager", "dynamic": True}
AUTO = {"backend": "eager"}
CASES = [
    Case(
        "user_branch",
        branch,
        DYN,
        [call((8, 3))],
        [call((9, 3)), call((3, 3)), call((2, 3)), call((1, 3)), call((10, 3))],
    ),
    Case("op_view", view_pairs, DYN, [call((8,))], [call((6,)), call((10,)), call((2,))]),
    Case(
        "op_broadcast",
        add,
        DYN,
        [call((4,), (4,))],
        [call((5,), (5,)), call((4,), (1,)), call((6,), (1,))],
        no_duck,
    ),
    Case(
        "slice_expr",
        half_slice,
        DYN,
        [call((8,), (10,))],
        [call((8,), (3,)), call((6,), (10,)), call((9,), (4,))],
    ),
    Case(
        "int_range",
        loop,
        AUTO,
        [call((3,), 2), call((3,), 3)],
        [call((3,), 3), call((3,), 4), call((3,), 2)],
    ),
    Case("zero_one", double, DYN, [call((1, 3))], [call((5, 3)), call((1, 3)), call((6, 3))]),
    Case(
        "duck",
        pair_sum,
        DYN,
        [call((4,), (4,))],
        [call((5,), (5,)), call((4,), (5,)), call((7,), (7,))],
    ),
    Case(
        "static_default",
        double_again,
        AUTO,
        [call((8, 3))],
        [call((8, 3)), call((6, 3)), call((7, 3)), call((7, 4))],
    ),
    Case(
        "inductor",
        reduce_rows,
        {"backend": "inductor", "dynamic": True},
        [call((100, 3))],
        [call((200, 3)), call((5000, 3)), call((6000, 3))],
    ),
    Case(
        "backward",
        relu_scale,
        {"backend": "inductor", "dynamic": True},
        [call((100, 3), (3,))],
        [call((64, 3), (3,)), call((5000, 3), (3,))],
        requires_grad=True,
    ),
    Case(
        "interpolate",
        upsample,
        DYN,
        [call((2, 3, 8))],
        [call((2, 3, 9)), call((4, 3, 8)), call((2, 1, 8)), call((2, 3, 1))],
    ),
    Case(
        "nested_list",
        stack_all,
        DYN,
        [call([(4, 3), (5, 3)])],
        [call([(6, 3), (2, 3)]), call([(4, 3), (5, 3), (6, 3)]), call([(7, 3), (7, 3)])],
    ),
    Case(
        "dict_kwargs",
        keyed,
        DYN,
        [call({"a": (4,), "b": (6,)}, scale=2)],
        [call({"a": (5,), "b": (6,)}, scale=2), call({"a": (5,), "b": (6,)}, scale=3)],
    ),
    Case("mark_dynamic", pinned, AUTO, [call((8, 4))], [call((8, 4)), call((16, 2))], marks={0: 0}),
]


def tensors(value: Any, requires_grad: bool = False) -> Any:
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return torch.randn(value, requires_grad=requires_grad)
    if isinstance(value, list):
        return [tensors(v, requires_grad) for v in value]
    if isinstance(value, dict):
        return {k: tensors(v, requires_grad) for k, v in value.items()}
    return value


def warm(case: Case, compiled: Callable[..., Any]) -> None:
    for args, kwargs in case.warmup:
        real = [tensors(a, case.requires_grad) for a in args]
        for index, dim in case.marks.items():
            torch._dynamo.mark_dynamic(real[index], dim)
        with contextlib.suppress(Exception):  # mark_dynamic_violated fails by design
            compiled(*real, **{k: tensors(v) for k, v in kwargs.items()})


@contextlib.contextmanager
def started(
    case: Case, reset: bool = True
) -> Iterator[tuple[symdebug.Session, Callable[..., Any]]]:
    if reset:  # (a reset also restarts frame ids: one log must not hold two "0/0")
        torch._dynamo.reset()
    with case.config(), symdebug.capture() as session:
        compiled = torch.compile(case.fn, **case.options)
        warm(case, compiled)
        yield session, compiled


def record_outcomes(path: str) -> None:
    """Run every case; write, per probe, the lookup order before it and what torch did."""
    results = {}
    for case in CASES:
        with started(case, reset=False) as (session, compiled):
            outcomes = []
            for args, kwargs in case.probes:
                before = session.lookup_order(case.fn.__name__) or []
                try:
                    result = session.rerun(compiled, *args, **kwargs)
                    outcomes.append(
                        {"order": before, "entry": result.entry, "recompiled": result.recompiled}
                    )
                except Exception:
                    outcomes.append({"order": before, "entry": None, "recompiled": True})
            results[case.name] = outcomes
    with open(path, "w") as out:
        json.dump(results, out)


if __name__ == "__main__":
    record_outcomes(sys.argv[1])

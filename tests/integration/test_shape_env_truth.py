"""The installed guards in the model equal the deduplicated ShapeEnv.guards of each compile,
read directly from the ShapeEnv by a backend of the test's own."""

from __future__ import annotations

from typing import Any

import torch
from torch._dynamo.backends.common import aot_autograd
from torch._guards import CompileContext, TracingContext

import symdebug

SHAPE_ENVS: dict[str, Any] = {}


def recording_backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
    """aot_eager, but remember each compile's ShapeEnv to read its guards afterwards."""
    compile_id = str(CompileContext.current_compile_id())
    SHAPE_ENVS[compile_id] = TracingContext.get().fake_mode.shape_env
    return aot_autograd(fw_compiler=lambda g, _: g.forward)(gm, example_inputs)


def model(x, y, n: int):
    if x.shape[0] > 4:
        x = x * 2
    h = x.view(-1, 2).sum(0)
    return h.sum() + y[: x.shape[0] // 2].sum() * n


def test_installed_guards_equal_shape_env_guards() -> None:
    SHAPE_ENVS.clear()
    calls = [((8, 4), (10,), 3), ((6, 4), (10,), 3), ((6, 4), (12,), 4), ((3, 4), (12,), 5)]
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend=recording_backend)
        for xs, ys, n in calls:
            compiled(torch.randn(*xs), torch.randn(*ys), n)
    assert len(SHAPE_ENVS) == len(s.compiles) >= 3
    total = 0
    for compile_id, env in SHAPE_ENVS.items():
        expected = list(dict.fromkeys(str(g.expr) for g in env.guards))
        installed = [
            g.expr for g in s.guards if g.compile_id == compile_id and g.status == "installed"
        ]
        assert installed == expected, compile_id
        total += len(expected)
    assert total >= 5  # the model really guards: the test can fail


def test_guard_counts_match_torch_metrics() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(8, 4), torch.randn(10), 3)
    (compile_,) = s.compiles
    installed = [g for g in s.guards if g.status == "installed"]
    assert compile_.shape_env_guard_count == len(installed) > 0

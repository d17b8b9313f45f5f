"""Guards linked to the FX node they were added during, exact live and inferred from logs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch

import symdebug


def model(x, y):
    if x.shape[0] > 4:  # BRANCH
        x = x * 2
    h = x.view(-1, 2).sum(0)  # VIEW
    return h + y[: x.shape[0] // 2].sum()  # SLICE


def guard(session: symdebug.Session, expr: str):
    return next(g for g in session.guards if g.expr == expr)


def test_exact_nodes_live() -> None:
    with symdebug.capture() as s:
        torch.compile(model, backend="aot_eager", dynamic=True)(torch.randn(8), torch.randn(10))
    view = guard(s, "Eq(Mod(s77, 2), 0)")
    assert (view.fx_node, view.fx_node_target, view.fx_node_inferred) == ("view", "view", False)
    assert "# VIEW" in view.user_frame.line
    sliced = guard(s, "((s77//2)) <= s17")
    assert sliced.fx_node.startswith("getitem") and sliced.fx_node_target == "getitem"
    assert "# SLICE" in sliced.user_frame.line
    branch = guard(s, "s77 > 4")
    assert branch.fx_node is None and branch.instruction.startswith("POP_JUMP")
    assert branch.user_frame.lineno == model.__code__.co_firstlineno + 1
    assert branch.line_nodes == []  # the `if` line itself produces no node


def test_broadcast_equality_node() -> None:
    def f(a, b):
        return a + b

    with torch.fx.experimental._config.patch(use_duck_shape=False), symdebug.capture() as s:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(4), torch.randn(4))
    eq = guard(s, "Eq(s97, s52)")
    assert (eq.fx_node, eq.fx_node_target) == ("add", "add")


def test_backward_graph_guard_is_linked_to_the_backward_trace() -> None:
    def f(x, w):
        return torch.relu(x) * w

    w = torch.randn(3, requires_grad=True)
    with symdebug.capture() as s:
        torch.compile(f, backend="inductor", dynamic=True)(torch.randn(100, 3), w).sum().backward()
    bw = guard(s, "s77 <= 4096")
    assert bw.aot_graph.endswith("_backward") and bw.phase == "inductor"
    kernel = next(k for k in s.kernels if k.name == bw.kernel and k.graph == bw.aot_graph)
    assert set(bw.inductor_node.split(",")) <= set(kernel.nodes)
    assert kernel.graph.endswith("_backward")
    assert {c.graph for c in s.graph_code} >= {kernel.graph}  # the wrapper of each graph


def test_nodes_inferred_from_a_trace(tmp_path: Path) -> None:
    script = tmp_path / "prov.py"
    script.write_text(
        textwrap.dedent(
            """
            import torch
            torch.compiler.config.force_disable_caches = True
            def model(x, y):
                if x.shape[0] > 4:
                    x = x * 2
                h = x.view(-1, 2).sum(0)
                return h + y[: x.shape[0] // 2].sum()
            torch.compile(model, backend="aot_eager", dynamic=True)(torch.randn(8), torch.randn(10))
            """
        )
    )
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"))
    subprocess.run([sys.executable, str(script)], check=True, env=env, timeout=300)
    s = symdebug.load_trace(tmp_path / "trace")
    view = guard(s, "Eq(Mod(s77, 2), 0)")
    assert (view.fx_node, view.fx_node_inferred) == ("view", True)
    sliced = guard(s, "((s77//2)) <= s17")
    assert sliced.fx_node.startswith("getitem") and sliced.fx_node_inferred
    assert guard(s, "s77 > 4").fx_node is None

"""Inductor on CPU: every ks* argument maps to its symbol and source, and a dimension that
Dynamo kept symbolic but the kernel baked in is found and explained."""

from __future__ import annotations

import re

import pytest
import torch
import torch.nn.functional as F  # noqa: N812 - the universal spelling

import symdebug


def conv(x, w):
    return F.conv2d(x, w).relu()


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    torch._dynamo.reset()
    with symdebug.capture() as s:
        torch.compile(conv, backend="inductor", dynamic=True)(
            torch.randn(2, 3, 16, 16), torch.randn(4, 3, 3, 3)
        )
    return s


def test_every_size_argument_maps_to_symbol_and_source(session: symdebug.Session) -> None:
    kernels = [k for k in session.facts.kernels if k.language == "cpp"]
    assert kernels
    args = [a for k in kernels for a in k.size_args]
    assert args and all(a.param.startswith("ks") for a in args)
    for arg in args:
        assert arg.symbols and arg.sources, arg
    by_symbol = {a.expr: a.sources[0] for a in args}
    assert by_symbol["s77"] == "L['x'].size()[0]"
    assert by_symbol["s53"] == "L['x'].size()[2]"
    assert {tuple(k.nodes) for k in kernels} == {("conv2d",), ("relu",)}


def test_symbolic_before_inductor_literal_in_kernel(session: symdebug.Session) -> None:
    (code,) = session.facts.graph_code
    dims = {d.source: d for d in code.specialized_dims}
    weight = dims["L['w'].size()[0]"]
    assert (weight.symbol, weight.value, weight.cause) == ("s15", 4, "inductor")
    assert "Eq(s15, 4)" in weight.explanation and "conv.py" in weight.explanation
    assert "L['x'].size()[0]" not in dims  # batch stayed symbolic in the kernel
    pinned = {d.symbol for d in code.specialized_dims}
    assert pinned == {"s15", "s27"}  # s77, s53 stay free: s15 and s27 were pinned by Inductor


def test_codegen_constants_are_not_size_specializations(session: symdebug.Session) -> None:
    """Loop steps (1, and the CPU's vector width, whatever it is) are codegen constants, and no
    codegen constant is reported as a size the kernel baked in."""
    kernels = [k for k in session.facts.kernels if k.language == "cpp"]
    for kernel in kernels:
        steps = {int(v) for v in re.findall(r"\+=static_cast<int64_t>\((\d+)L\)", kernel.source)}
        assert steps, kernel.name  # every C++ kernel loops
        codegen = {lit.value for lit in kernel.literals if lit.kind == "codegen"}
        assert steps <= codegen, (kernel.name, steps, kernel.literals)
    sizes = {lit.value for k in kernels for lit in k.literals if lit.kind == "size"}
    codegen_only = {lit.value for k in kernels for lit in k.literals if lit.kind == "codegen"}
    codegen_only -= sizes
    (code,) = session.facts.graph_code
    assert not codegen_only & {d.value for d in code.specialized_dims}
    # The dims baked in are the inputs' own: channels and the weight's shape, not a loop step.
    assert {(d.source, d.value) for d in code.specialized_dims} == {
        ("L['x'].size()[1]", 3),
        ("L['w'].size()[0]", 4),
        ("L['w'].size()[1]", 3),
        ("L['w'].size()[2]", 3),
        ("L['w'].size()[3]", 3),
    }


def test_view_guard_and_silent_static() -> None:
    def f(x):
        return x.view(-1, 2) * 2

    with symdebug.capture() as s:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8))
        torch.compile(lambda t: t + 1, backend="eager", dynamic=True)(torch.randn(1, 1))
    view = [g for g in s.guards if g.fx_node_target == "view"]
    assert view and view[0].user_frame is not None
    # dynamic=True asked for symbols; sizes of 1 gave the second graph none (0/1 rule).
    free = {
        c.compile_id: [
            y for y in s.symbols if y.compile_id == c.compile_id and y.state == "dynamic"
        ]
        for c in s.compiles
    }
    assert [cid for cid, symbols in free.items() if not symbols] == ["1/0"]
    assert {y.cause for y in s.symbols if y.compile_id == "1/0"} == {"zero_one"}


def test_maybe_mark_dynamic_that_ended_static() -> None:
    def f(x):
        return x.view(8, -1)

    x = torch.randn(8, 4)
    torch._dynamo.maybe_mark_dynamic(x, 0)
    with symdebug.capture() as s:
        torch.compile(f, backend="eager")(x)
    assert s.compiles[0].marked_dynamic == ["L['x'].size()[0]"]
    static = {sp.source for sp in s.specializations if sp.compile_id == s.compiles[0].compile_id}
    assert "L['x'].size()[0]" in static  # marked, but the view made it a constant

"""Inductor on CPU: every ks* argument maps to its symbol and source, and a dimension that
Dynamo kept symbolic but the kernel baked in is found and explained."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F  # noqa: N812 - the universal spelling

import symdebug
from symdebug.queries.audit import audit_graphs, operator_table


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
    audit = next(a for a in audit_graphs(session.facts) if a.compile_id == "0/0")
    assert "L['w'].size()[0]" in audit.baked_in
    assert audit.free_symbols == 2  # s77, s53: s15 and s27 were pinned by Inductor


def test_codegen_constants_are_not_size_specializations(session: symdebug.Session) -> None:
    literals = [lit for k in session.facts.kernels for lit in k.literals]
    assert any(lit.kind == "codegen" and lit.value == 16 for lit in literals)  # vector width
    assert any(lit.kind == "size" and lit.value == 4 for lit in literals)  # out channels


def test_operator_table_and_silent_static() -> None:
    def f(x):
        return x.view(-1, 2) * 2

    with symdebug.capture() as s:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8))
        torch.compile(lambda t: t + 1, backend="eager", dynamic=True)(torch.randn(1, 1))
    rows = {row.op: row for row in operator_table(s.facts)}
    assert rows["view"].guards >= 1 and rows["view"].example is not None
    silent = [a for a in audit_graphs(s.facts) if a.silently_static]
    assert [a.compile_id for a in silent] == ["1/0"]


def test_maybe_mark_dynamic_that_ended_static() -> None:
    def f(x):
        return x.view(8, -1)

    x = torch.randn(8, 4)
    torch._dynamo.maybe_mark_dynamic(x, 0)
    with symdebug.capture() as s:
        torch.compile(f, backend="eager")(x)
    (audit,) = audit_graphs(s.facts)
    assert s.compiles[0].marked_dynamic == ["L['x'].size()[0]"]
    assert audit.marked_but_static == ["L['x'].size()[0]"]

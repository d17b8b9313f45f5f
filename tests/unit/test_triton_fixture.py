"""Inductor on a CUDA GPU (a real H200 run, recorded by ``scripts/record_triton.py``):
Triton kernels' size arguments, the sizes computed in ``call()`` before a launch, literals of
static kernels, and dims that Inductor baked in.

The log was written by torch 2.11 (the GPU machine's build), so this also reads an older
torch's log."""

from __future__ import annotations

from pathlib import Path

import pytest

import symdebug
from symdebug.model.types import Facts

DATA = Path(__file__).resolve().parents[1] / "data" / "triton"
LOG = DATA / "inductor_cuda_h200.log.gz"


@pytest.fixture(scope="module")
def facts() -> Facts:
    session = symdebug.load_trace(LOG)
    assert isinstance(session, symdebug.Session)
    return session.facts


def _args(facts: Facts, compile_id: str) -> dict[str, tuple[str, list[str]]]:
    (kernel,) = [k for k in facts.kernels if k.compile_id == compile_id]
    assert kernel.language == "triton"
    return {a.param: (a.expr, a.sources) for a in kernel.size_args}


def test_every_kernel_is_triton_and_mapped_to_its_nodes(facts: Facts) -> None:
    assert len(facts.kernels) == 5
    assert all(k.language == "triton" and "@triton.jit" in k.source for k in facts.kernels)
    nodes = {k.name: set(k.nodes) for k in facts.kernels}
    assert nodes["triton_red_fused_mul_sin_sum_0"] == {"sin", "mul", "sum_1"}
    assert nodes["triton_poi_fused_relu_0"] == {"relu"}


def test_reduction_size_arguments_map_to_sources(facts: Facts) -> None:
    args = _args(facts, "0/0")
    assert args["ks0"] == ("s27", ["L['x'].size()[1]"])
    assert args["xnumel"] == ("s77", ["L['x'].size()[0]"])
    assert args["r0_numel"] == ("s27", ["L['x'].size()[1]"])


def test_sizes_computed_before_the_launch_are_resolved(facts: Facts) -> None:
    """``ps0 = (-2) + s53`` and ``..._xnumel = 16*s77 + ...`` are locals in ``call()``."""
    args = _args(facts, "1/0")
    assert args["ks0"] == ("(-2) + s53", ["L['x'].size()[2]"])
    assert args["ks1"][1] == ["L['x'].size()[2]"]
    expr, sources = args["xnumel"]
    assert "s77" in expr and "s53" in expr
    assert sorted(sources) == ["L['x'].size()[0]", "L['x'].size()[2]"]
    assert _args(facts, "2/0")["xnumel"] == ("s77 // 8", ["L['x'].size()[0]"])


def test_static_kernel_literal_then_symbolic_after_recompile(facts: Facts) -> None:
    static = next(k for k in facts.kernels if k.compile_id == "3/0")
    assert [(lit.value, lit.kind) for lit in static.literals] == [(300, "size")]
    assert not static.size_args
    assert _args(facts, "3/1") == {"xnumel": ("s77", ["L['x'].size()[0]"])}


def test_conv_dims_baked_in_by_inductor_on_gpu(facts: Facts) -> None:
    (code,) = [c for c in facts.graph_code if c.compile_id == "1/0"]
    dims = {d.source: (d.symbol, d.value, d.cause) for d in code.specialized_dims}
    assert dims == {
        "L['x'].size()[1]": ("s27", 3, "inductor"),
        "L['w'].size()[0]": ("s15", 4, "inductor"),
        "L['w'].size()[1]": ("s27", 3, "inductor"),  # duck-sized with x's channels
        "L['w'].size()[2]": ("s27", 3, "inductor"),
        "L['w'].size()[3]": ("s27", 3, "inductor"),
    }
    weight = next(d for d in code.specialized_dims if d.source == "L['w'].size()[0]")
    assert "Eq(s15, 4)" in weight.explanation and "conv.py" in weight.explanation
    assert "L['x'].size()[0]" not in dims


def test_report_shows_triton_kernels(tmp_path: Path) -> None:
    session = symdebug.load_trace(LOG)
    assert isinstance(session, symdebug.Session)
    html = session.to_html(tmp_path / "report.html").read_text()
    assert "triton_poi_fused_relu_0" in html and "(-2) + s53" in html


def test_gpt2_on_gpu_every_kernel_size_maps_to_the_input_ids() -> None:
    """A small GPT-2 (from config) run at lengths 16, 24, 40 and then batch 3 on an H200."""
    session = symdebug.load_trace(DATA / "gpt2_cuda_h200.log.gz")
    assert isinstance(session, symdebug.Session)
    facts = session.facts
    assert [r.cause for r in facts.recompiles] == ["static_by_default", "static_by_default"]
    kernels = facts.kernels
    assert len(kernels) > 20 and {k.language for k in kernels} == {"triton"}
    args = [a for k in kernels for a in k.size_args]
    assert args and all(a.sources for a in args)
    by_compile = {
        cid: {s for k in kernels if k.compile_id == cid for a in k.size_args for s in a.sources}
        for cid in ("0/0", "0/1", "0/2")
    }
    assert by_compile["0/0"] == set()  # static: sizes are literals
    assert by_compile["0/1"] == {"L['ids'].size()[1]"}  # length dynamic, batch still 2
    assert by_compile["0/2"] == {"L['ids'].size()[0]", "L['ids'].size()[1]"}
    static = [lit for k in kernels if k.compile_id == "0/0" for lit in k.literals]
    assert any(lit.context == "xnumel = 32" for lit in static)  # batch 2 x length 16

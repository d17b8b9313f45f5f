"""Record a real Inductor run on a CUDA GPU, for the Triton fixtures in ``tests/data/triton``.

Usage (on a machine with CUDA)::

    python scripts/record_triton.py OUTDIR [kernels] [gpt2]

For each workload set the script re-runs itself with ``TORCH_TRACE=OUTDIR/<set>/trace`` and,
in that child, compiles with ``backend="inductor"`` on ``cuda`` inside ``symdebug.capture()``:
``kernels`` is a few small dynamic-shape functions, ``gpt2`` a small GPT-2 built from config
(random weights) driven with growing sequence length and a new batch size.  It leaves the
``TORCH_TRACE`` log and each graph's output code (``OUTDIR/<set>/output_code.py``), and prints
what symdebug read from the Triton kernels so that the run can be checked by eye.  The logs
become ``tests/data/triton/inductor_cuda_h200.log`` and ``gpt2_cuda_h200.log``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from pathlib import Path


def _workloads():
    import torch
    import torch.nn.functional as F  # noqa: N812

    def reduce_rows(x):  # pointwise + reduction: xnumel, r0_numel and ks* arguments
        return (x.sin() * 2).sum(-1)

    def conv(x, w):  # conv2d through the extern kernel, relu through Triton
        return F.conv2d(x, w).relu()

    def blocks(x):  # divisibility from view, then a softmax over a static dim
        return x.view(-1, 8).softmax(-1)

    def scale(x):  # automatic dynamic: static kernels first (numel literals), then symbolic
        return x * 3 + 1

    def rand(*size: int) -> torch.Tensor:
        return torch.randn(*size, device="cuda")

    return [
        (reduce_rows, True, [(rand(8, 37),), (rand(5, 50),)]),
        (conv, True, [(rand(2, 3, 16, 16), rand(4, 3, 3, 3))]),
        (blocks, True, [(rand(64),), (rand(96),)]),
        (scale, None, [(rand(300),), (rand(301),)]),
    ]


def _gpt2_workloads():
    import torch
    import transformers

    config = transformers.GPT2Config(
        n_layer=2, n_embd=64, n_head=2, vocab_size=512, n_positions=256, bos_token_id=0
    )
    model = transformers.GPT2LMHeadModel(config).cuda().eval()

    def logits(ids):
        with torch.no_grad():
            return model(ids).logits

    def ids(batch: int, length: int) -> torch.Tensor:
        return torch.randint(0, 512, (batch, length), device="cuda")

    return [(logits, None, [(ids(2, 16),), (ids(2, 24),), (ids(2, 40),), (ids(3, 40),)])]


WORKLOADS = {"kernels": _workloads, "gpt2": _gpt2_workloads}


def _describe(session) -> None:
    facts = session.facts
    print(f"compiles={len(facts.compiles)} guards={len(facts.guards)} kernels={len(facts.kernels)}")
    for kernel in facts.kernels:
        args = [(a.param, a.expr, a.sources) for a in kernel.size_args]
        literals = [(lit.value, lit.kind, lit.context) for lit in kernel.literals]
        print(f"{kernel.compile_id} {kernel.name} {kernel.language} nodes={kernel.nodes}")
        print(f"    size_args={args}\n    literals={literals}")
    for code in facts.graph_code:
        dims = [(d.source, d.symbol, d.value, d.explanation) for d in code.specialized_dims]
        print(f"{code.compile_id} inputs={code.input_sizes} specialized={dims}")


def child(out: Path, workloads: str) -> None:
    import torch

    import symdebug

    print("torch", torch.__version__, torch.cuda.get_device_name(), workloads)
    torch._dynamo.reset()
    with symdebug.capture() as session:
        for fn, dynamic, calls in WORKLOADS[workloads]():
            compiled = torch.compile(fn, backend="inductor", dynamic=dynamic)
            for args in calls:
                torch.testing.assert_close(compiled(*args), fn(*args), atol=1e-3, rtol=1e-3)
    events = session._handler.stream.events  # a recording script, not the API
    codes = [e.payload for e in events if e.name == "inductor_output_code"]
    (out / "output_code.py").write_text("\n\n# ----\n\n".join(c for c in codes if c))
    _describe(session)


def main() -> int:
    out = Path(sys.argv[1]).resolve()
    if len(sys.argv) > 3 and sys.argv[2] == "--child":
        try:
            child(out, sys.argv[3])
        except Exception:
            traceback.print_exc()
            return 1
        return 0
    failed = 0
    for name in sys.argv[2:] or list(WORKLOADS):
        (out / name).mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "TORCH_TRACE": str(out / name / "trace")}
        command = [sys.executable, __file__, str(out / name), "--child", name]
        failed += subprocess.call(command, env=env) != 0
    return int(failed > 0)


if __name__ == "__main__":
    sys.exit(main())

"""A script that recompiles one frame N times: an int argument, specialized on each value
(``automatic_dynamic_shapes`` off), called with N distinct values under a raised recompile
limit.  Run under ``TORCH_TRACE`` its log grows with the square of N, since torch writes
each recompile's reasons against every earlier cache entry (``bench_recompiles.py``).

Usage: ``python benchmarks/many_recompiles.py N``.
"""

from __future__ import annotations

import sys

import torch


def scaled(x: torch.Tensor, factor: int) -> torch.Tensor:
    return x * factor + 1


def main(recompiles: int) -> None:
    torch.compiler.config.force_disable_caches = True
    torch._dynamo.config.automatic_dynamic_shapes = False
    torch._dynamo.config.recompile_limit = recompiles + 10
    torch._dynamo.config.accumulated_recompile_limit = recompiles + 10
    compiled = torch.compile(scaled, backend="eager")
    x = torch.randn(4)
    for factor in range(recompiles + 1):  # the first call compiles, each later one recompiles
        compiled(x, factor)


if __name__ == "__main__":
    main(int(sys.argv[1]))

"""A script that compiles many small graphs with Inductor at growing sizes: each graph is
compiled static, then dynamic, with a branch and a slice on its sizes.  Run under
``TORCH_TRACE`` it writes a real log of about 270 KB per graph (``bench_tlparse.py``).

Usage: ``python benchmarks/many_graphs.py GRAPHS``
"""

from __future__ import annotations

import sys

import torch

SOURCE = """
def graph_{k}(x, y):
    z = x * {k1} + y[: y.shape[0] // 2].sum()
    if x.shape[0] > {bound}:
        z = z.relu()
    return z.cos() + {k}
"""


def main(graphs: int) -> None:
    torch.compiler.config.force_disable_caches = True
    for k in range(graphs):
        # One code object per graph (a closure would share one, and hit the recompile limit).
        scope = {"torch": torch}
        code = compile(SOURCE.format(k=k, k1=k + 1, bound=4 + k % 3), f"graph_{k}.py", "exec")
        exec(code, scope)
        compiled = torch.compile(scope[f"graph_{k}"])
        for size in (6, 8, 10):
            compiled(torch.randn(size, 4), torch.randn(size * 2))


if __name__ == "__main__":
    main(int(sys.argv[1]))

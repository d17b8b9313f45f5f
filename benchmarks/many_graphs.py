"""A script that compiles many small graphs with Inductor at growing sizes: each graph is
compiled static, then dynamic, with a branch and a slice on its sizes.  Run under
``TORCH_TRACE`` it writes a real log of about 270 KB per graph (``bench_tlparse.py``).

Usage: ``python benchmarks/many_graphs.py GRAPHS [changed]``.  ``changed`` is the same
program after a code change (``bench_diff.py`` compares the two logs): every third graph's
branch bound moves so that the sizes it is called with fall on both sides of it, and those
graphs gain a recompile.
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


def bound_of(k: int, changed: bool) -> int:
    """The branch's bound of graph ``k``: 4-6, or 8 for every third graph once changed."""
    return 8 if changed and k % 3 == 0 else 4 + k % 3


def main(graphs: int, changed: bool = False) -> None:
    torch.compiler.config.force_disable_caches = True
    for k in range(graphs):
        # One code object per graph (a closure would share one, and hit the recompile limit).
        scope = {"torch": torch}
        source = SOURCE.format(k=k, k1=k + 1, bound=bound_of(k, changed))
        code = compile(source, f"graph_{k}.py", "exec")
        exec(code, scope)
        compiled = torch.compile(scope[f"graph_{k}"])
        for size in (6, 8, 10):
            compiled(torch.randn(size, 4), torch.randn(size * 2))


if __name__ == "__main__":
    main(int(sys.argv[1]), changed=sys.argv[2:] == ["changed"])

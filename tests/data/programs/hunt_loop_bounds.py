"""Class 10: the hunt on loop counts and a dim that never varies.

``n`` is a loop count (``for _ in range(n)``): each value compiles, and no setting can keep
it symbolic.  ``w.shape[1]`` never varies: it cost no compile.  ``x.shape[1]`` is a loop
bound (``range(x.shape[1])``): that, not the matmul, is what holds it constant.
"""

from __future__ import annotations

import torch


def mix(x: torch.Tensor, w: torch.Tensor, n: int) -> torch.Tensor:
    acc = x @ w
    for _ in range(n):
        acc = acc * 0.5
    for j in range(x.shape[1]):
        acc = acc + x[:, j : j + 1]
    return acc


def workload() -> list[torch.Tensor]:
    compiled = torch.compile(mix, backend="eager")
    outs = []
    for width, n in ((3, 1), (4, 2), (5, 3), (6, 4)):
        outs.append(compiled(torch.randn(2, width), torch.randn(width, 5), n))
    return outs


if __name__ == "__main__":
    workload()

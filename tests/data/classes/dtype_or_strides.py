"""Class 6: a call that two cache entries refuse for different reasons.

Entry 0 holds a contiguous float32 ``x``, entry 1 a contiguous float64 one.  The third call
is a transposed (non-contiguous) float32 ``x``: entry 1 fails on its dtype, entry 0 on its
strides.  The call is closest to entry 0, so the cause is the strides.
"""

from __future__ import annotations

import torch


def scale(x: torch.Tensor) -> torch.Tensor:
    return x * 2 + 1


def main() -> list[torch.Tensor]:
    compiled = torch.compile(scale, backend="eager", dynamic=False)
    base = torch.randn(4, 6)
    return [compiled(base), compiled(base.double()), compiled(torch.randn(6, 4).t())]


if __name__ == "__main__":
    main()

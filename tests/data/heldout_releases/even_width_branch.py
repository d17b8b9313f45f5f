"""A rotary-style feature mixer splits the last dimension in half when it is even and falls
back to a plain scale when it is odd.

`if x.shape[-1] % 2 == 0:` is a user branch on a size: after the width becomes dynamic the
branch leaves a parity guard behind, and an odd width compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


class HalfRotate(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[-1] % 2 == 0:
            first, second = x.chunk(2, dim=-1)
            return torch.cat([-second, first], dim=-1) + x
        return x * 0.5


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    mixer = torch.compile(HalfRotate(), backend="eager")
    outputs = []
    for width in (8, 12, 16, 9):
        outputs.append(mixer(torch.randn(3, width)))
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

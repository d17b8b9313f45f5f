"""A feature-pyramid fuse step given a list of 3 feature maps, then a list of 4.

The list's length is checked by the entry: the 4-level pyramid compiles again.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class PyramidFuse(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.smooth = nn.Conv2d(channels, channels, kernel_size=1)

    def forward(self, levels: list[torch.Tensor]) -> torch.Tensor:
        target = levels[0].shape[-2:]
        fused = levels[0]
        for level in levels[1:]:
            fused = fused + F.interpolate(level, size=target, mode="nearest")
        return self.smooth(fused)


def pyramid(depth: int, channels: int = 4, size: int = 32) -> list[torch.Tensor]:
    return [torch.randn(1, channels, size >> i, size >> i) for i in range(depth)]


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    fuse = torch.compile(PyramidFuse(4), backend="eager")
    with torch.no_grad():
        return [fuse(pyramid(3)), fuse(pyramid(4))]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""Class 2: a UNet's skip connection branches on a tuple of sizes before concatenating.

``if up.shape[2:] != skip.shape[2:]`` is the user's branch: at odd heights the upsampled
map is one row short, so each residue of H that flips the comparison recompiles.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class TinyUNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Conv2d(1, 4, 3, padding=1)
        self.down = nn.Conv2d(4, 4, 3, stride=2, padding=1)
        self.up = nn.Upsample(scale_factor=2)
        self.out = nn.Conv2d(8, 1, 1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        skip = self.enc(images)
        up = self.up(self.down(skip))
        if up.shape[2:] != skip.shape[2:]:
            up = F.interpolate(up, size=skip.shape[2:])
        return self.out(torch.cat([up, skip], dim=1))


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = torch.compile(TinyUNet(), backend="eager")
    with torch.no_grad():
        return [model(torch.randn(1, 1, h, 16)) for h in (16, 20, 21, 22, 23)]


if __name__ == "__main__":
    main()

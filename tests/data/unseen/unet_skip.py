"""A small UNet whose decoder resizes the upsampled map to the skip connection before torch.cat.

Images of size 32, 34, 33, 35, 36.  32 compiles static; 34 fails `images` size at index 2
and recompiles with H and W dynamic, guarding that both are even (the shape comparison
`x.shape[2:] != skip.shape[2:]` becomes `2 + 2*((H - 1) // 2) == H` for H and W); 33 fails
that parity guard and compiles a third time, the branch that interpolates; 35 and 36 hit.
In next_calls(), 40x40 hits the even graph, 41x40 (odd H only) hits the odd graph, and a
batch of 2 fails `images` size at index 0 (the batch was a constant) and recompiles.
Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class TinyUNet(nn.Module):
    def __init__(self, channels: int = 4) -> None:
        super().__init__()
        self.enc = nn.Conv2d(1, channels, kernel_size=3, padding=1)
        self.down = nn.Conv2d(channels, channels * 2, kernel_size=3, stride=2, padding=1)
        self.bottleneck = nn.Conv2d(channels * 2, channels * 2, kernel_size=3, padding=1)
        self.up = nn.ConvTranspose2d(channels * 2, channels, kernel_size=2, stride=2)
        self.dec = nn.Conv2d(channels * 2, channels, kernel_size=3, padding=1)
        self.head = nn.Conv2d(channels, 1, kernel_size=1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        skip = F.relu(self.enc(images))
        x = F.relu(self.down(skip))
        x = F.relu(self.bottleneck(x))
        x = self.up(x)
        if x.shape[2:] != skip.shape[2:]:
            # odd input sizes lose a pixel in the stride-2 conv; resize back to the skip's size
            x = F.interpolate(x, size=skip.shape[2:], mode="nearest")
        x = torch.cat([x, skip], dim=1)
        return self.head(F.relu(self.dec(x)))


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    unet = _compiled["unet"] = torch.compile(TinyUNet(), backend="eager")
    return [unet(torch.randn(1, 1, size, size)) for size in (32, 34, 33, 35, 36)]


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    unet = _compiled["unet"]
    return [
        (unet, (torch.randn(1, 1, 40, 40),), {}),
        (unet, (torch.randn(1, 1, 41, 40),), {}),
        (unet, (torch.randn(2, 1, 40, 40),), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

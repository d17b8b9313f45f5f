"""An Inductor-compiled down/up block: max-pool by 2, upsample by 2, at even and odd image sizes.

`max_pool2d(stride=2, ceil_mode=True)` -> conv -> `interpolate(scale_factor=2)`, cropped back
to the input size, at 48, 64, 47, 49.  48 compiles static; 64 fails `images` size at index 2
and recompiles with H and W dynamic; in that graph the crop is a no-op only for even sizes
(ceil(W/2)*2 == W), and the guard torch keeps is
`2 + 2*((images.size()[3] - 1) // 2) == images.size()[3]` (raised from the contiguity check
of the slice), so 47 fails it and compiles a third graph; 49 hits that one.  Same on torch
2.13 and 2.15 (about 40 s on 2 shared CPU cores, mostly Inductor's C++ builds).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class DownUpBlock(nn.Module):
    def __init__(self, channels: int = 3) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        coarse = F.max_pool2d(images, kernel_size=2, stride=2, ceil_mode=True)
        features = torch.relu(self.conv(coarse))
        upsampled = F.interpolate(features, scale_factor=2.0, mode="nearest")
        # ceil_mode keeps the last row/column of odd images; crop back to the input size
        return images + upsampled[..., : images.shape[-2], : images.shape[-1]]


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    block = torch.compile(DownUpBlock(), backend="inductor")
    with torch.no_grad():
        return [block(torch.randn(1, 3, size, size)) for size in (48, 64, 47, 49)]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

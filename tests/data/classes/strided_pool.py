"""Class 5: a stride-2 conv, then adaptive average pooling, under Inductor.

H = 47 compiles static; 48 recompiles with H dynamic and shares that entry with nothing
else; 49 recompiles again on a check Inductor's lowering of the pooling added (the pooled
window's size depends on the conv's output size, ``(H + 1) // 2``).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class StridedHead(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, stride=2, padding=1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.conv(images)
        return F.adaptive_avg_pool2d(x, (6, 6)).flatten(1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    head = torch.compile(StridedHead(), backend="inductor")
    with torch.no_grad():
        return [head(torch.randn(1, 3, h, 32)) for h in (47, 48, 49)]


if __name__ == "__main__":
    main()

"""An Inductor-compiled CNN head with `adaptive_avg_pool2d(.., 7)` at image sizes 56, 112, 60.

56 compiles static; 112 recompiles with a dynamic size; Inductor's adaptive-pooling lowering
adds a guard on the size's divisibility, so 60 compiles again.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class PooledHead(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.fc = nn.Linear(4 * 7 * 7, 5)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem(images))
        x = F.adaptive_avg_pool2d(x, (7, 7))
        return self.fc(x.flatten(1))


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    head = torch.compile(PooledHead(), backend="inductor")
    with torch.no_grad():
        return [head(torch.randn(1, 3, size, size)) for size in (56, 112, 60)]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

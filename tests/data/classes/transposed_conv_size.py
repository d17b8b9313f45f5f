"""Class 3: a size specialized inside ``torch.nn``: a transposed conv's output-size check.

``self.up(x, output_size=skip.shape)`` makes ``ConvTranspose2d._output_padding`` compare
the wanted size with the sizes it can reach, in ``torch/nn/modules/conv.py``.  The line to
change is the user's call of the module; the library line is context.
"""

from __future__ import annotations

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.down = nn.Conv2d(2, 2, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(2, 2, 3, stride=2, padding=1)

    def forward(self, skip: torch.Tensor) -> torch.Tensor:
        low = self.down(skip)
        return self.up(low, output_size=skip.shape) + skip


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = torch.compile(Decoder(), backend="eager")
    with torch.no_grad():
        return [model(torch.randn(1, 2, h, 8)) for h in (8, 10, 11, 12, 13)]


if __name__ == "__main__":
    main()

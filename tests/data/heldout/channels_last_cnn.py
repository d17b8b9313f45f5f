"""A small CNN classifier called on NCHW images, then on the same images in channels_last.

The memory format changes the input's strides: the cached entry's tensor check fails.
"""

from __future__ import annotations

import torch
from torch import nn


class TinyNet(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, kernel_size=3, padding=1),
            nn.ReLU(),
        )
        self.head = nn.Linear(16, classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.features(images)
        x = x.mean(dim=(2, 3))
        return self.head(x)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    net = TinyNet().eval()
    compiled = torch.compile(net, backend="eager")
    images = torch.randn(4, 3, 16, 16)
    with torch.no_grad():
        logits = compiled(images)
        logits_cl = compiled(images.to(memory_format=torch.channels_last))
    return [logits, logits_cl]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

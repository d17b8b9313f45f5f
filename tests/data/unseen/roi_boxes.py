"""A detection head that crops a fixed-size feature patch per box with `F.grid_sample`, for N boxes.

`F.affine_grid` checks its output size with `min(size) <= 0` in python; with a dynamic box
count n and the fixed sizes [n, 8, 4, 4], `min()` compares n with 8 and with 4, so each graph is
guarded to a range of n.  5 boxes compile static; 8 recompiles on `tensor 'boxes' size mismatch
at index 0. expected 5, actual 8` and the new graph is guarded `5 <= boxes.size()[0] <= 8`;
3 boxes fail that guard and recompile (3 compiles in main()).  In next_calls(), 6 boxes are
served from the cache; 12 boxes fail both range guards and recompile (the `2 <= boxes.size()[0]
<= 4` guard is attributed to the `boxes.shape[0] == 0` check, the size's first use); a single box recompiles on
`9 <= boxes.size()[0]`; no boxes (handled by an early return, since `affine_grid` rejects an
empty batch even in eager) recompile on `size mismatch at index 0. expected 1, actual 0`.  Same on
torch 2.13 and 2.15.  Without the early return, the 0-box call fails with TorchRuntimeError
("Expected non-zero, positive output size").
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

_COMPILED = None


class BoxHead(nn.Module):
    """RoIAlign-like pooling without torchvision: one affine sampling grid per box."""

    def __init__(self, channels: int = 8, pool: int = 4, num_classes: int = 5) -> None:
        super().__init__()
        self.pool = pool
        self.backbone = nn.Conv2d(3, channels, kernel_size=3, stride=2, padding=1)
        self.cls = nn.Linear(channels * pool * pool, num_classes)
        self.reg = nn.Linear(channels * pool * pool, 4)

    def roi_pool(self, features: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
        # boxes: (N, 4) as (x1, y1, x2, y2) in normalized [-1, 1] image coordinates.
        n = boxes.shape[0]
        x1, y1, x2, y2 = boxes.unbind(dim=1)
        theta = torch.zeros(n, 2, 3, dtype=features.dtype)
        theta[:, 0, 0] = (x2 - x1) / 2
        theta[:, 0, 2] = (x1 + x2) / 2
        theta[:, 1, 1] = (y2 - y1) / 2
        theta[:, 1, 2] = (y1 + y2) / 2
        grid = F.affine_grid(theta, [n, features.shape[1], self.pool, self.pool], align_corners=False)
        return F.grid_sample(features.expand(n, -1, -1, -1), grid, align_corners=False)

    def forward(self, image: torch.Tensor, boxes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if boxes.shape[0] == 0:  # affine_grid rejects an empty batch
            return image.new_zeros(0, self.cls.out_features), image.new_zeros(0, 4)
        features = torch.relu(self.backbone(image))  # (1, C, H/2, W/2)
        pooled = self.roi_pool(features, boxes).flatten(1)
        return self.cls(pooled), self.reg(pooled)


def random_boxes(n: int, seed: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    corners = torch.rand(n, 2, 2, generator=gen) * 2 - 1
    lo, hi = corners.min(dim=1).values, corners.max(dim=1).values
    return torch.cat([lo, hi], dim=1)  # (x1, y1, x2, y2)


def main() -> list[torch.Tensor]:
    global _COMPILED
    torch.manual_seed(0)
    _COMPILED = torch.compile(BoxHead(), backend="eager")
    image = torch.randn(1, 3, 32, 32)
    outs = []
    for n, seed in ((5, 0), (8, 1), (3, 2)):
        logits, _ = _COMPILED(image, random_boxes(n, seed))
        outs.append(logits)
    return outs


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    image = torch.randn(1, 3, 32, 32)
    return [
        (_COMPILED, (image, random_boxes(6, 6)), {}),
        (_COMPILED, (image, random_boxes(12, 3)), {}),
        (_COMPILED, (image, random_boxes(1, 4)), {}),
        (_COMPILED, (image, random_boxes(0, 5)), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

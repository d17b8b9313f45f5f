"""A ViT patch embedding whose learned position grid is interpolated to each image's patch grid.

The 32x32 batch compiles with static sizes; 48x48 recompiles on `tensor 'images' size mismatch
at index 2` and the height and width become dynamic, so the non-square 32x48 batch is served by
that graph (2 compiles in main()).  In next_calls(), 40x40 and 42x42 (not a multiple of the patch
size) are served from the cache, while a 4x64 strip, whose patch grid is a single row, recompiles
on `8 <= images.size()[2]`, a guard added inside the bicubic `F.interpolate`.  Same on torch 2.13
and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

_MODEL: TinyViT | None = None
_COMPILED = None


class PatchEmbed(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 32, base_grid: int = 8) -> None:
        super().__init__()
        self.patch = patch
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        # Position embeddings learned at a base_grid x base_grid patch grid (+1 for the CLS token).
        self.pos_embed = nn.Parameter(torch.randn(1, base_grid * base_grid + 1, dim) * 0.02)
        self.base_grid = base_grid

    def interpolate_pos_embed(self, grid_h: int, grid_w: int) -> torch.Tensor:
        cls_pos, patch_pos = self.pos_embed[:, :1], self.pos_embed[:, 1:]
        dim = patch_pos.shape[-1]
        patch_pos = patch_pos.reshape(1, self.base_grid, self.base_grid, dim).permute(0, 3, 1, 2)
        patch_pos = F.interpolate(patch_pos, size=(grid_h, grid_w), mode="bicubic", align_corners=False)
        patch_pos = patch_pos.permute(0, 2, 3, 1).reshape(1, grid_h * grid_w, dim)
        return torch.cat([cls_pos, patch_pos], dim=1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        _, _, height, width = images.shape
        grid_h, grid_w = height // self.patch, width // self.patch
        x = self.proj(images).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1)
        return x + self.interpolate_pos_embed(grid_h, grid_w)


class TinyViT(nn.Module):
    def __init__(self, dim: int = 32, num_classes: int = 10) -> None:
        super().__init__()
        self.embed = PatchEmbed(dim=dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.encoder(self.embed(images))
        return self.head(x[:, 0])


def main() -> list[torch.Tensor]:
    global _MODEL, _COMPILED
    torch.manual_seed(0)
    _MODEL = TinyViT().eval()
    _COMPILED = torch.compile(_MODEL, backend="eager")
    sizes = [(32, 32), (48, 48), (32, 48)]
    return [_COMPILED(torch.randn(2, 3, h, w)) for h, w in sizes]


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    return [
        # Another square size (and a size that does not divide by the patch size).
        (_COMPILED, (torch.randn(2, 3, 40, 40),), {}),
        (_COMPILED, (torch.randn(2, 3, 42, 42),), {}),
        # A 4-pixel-high strip: the patch grid is a single row.
        (_COMPILED, (torch.randn(2, 3, 4, 64),), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A patch-embedding model exported with `Dim.AUTO` sizes, then compiled at a few image sizes.

Export with `Dim.AUTO` on every dim of `images` succeeds and leaves all four dims symbolic
(range [2, inf)), but the branch on the token count is baked in as an input guard: the
exported module only accepts images with `(H // 4) * (W // 4) == 64` patches (and 3 channels).
torch.compile of the same model then compiles at (batch 2, 32x32), recompiles at batch 3
(`images` size at index 0, 2 vs 3), and again at 48x48 (`images` size at index 2, 32 vs
48), where the branch now goes the other way; 64x64 hits.  In next_calls(), batch 4 at
40x40 hits, and a wide 16x64 image (also 64 patches) fails
`((images.size()[2] // 4)*(images.size()[3] // 4)) != 64` and recompiles.  Same on torch
2.13 and 2.15, except that on 2.15 the compiled frames are numbered 1/x (export's trace
takes frame 0) where 2.13 numbers them 0/x.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.export import Dim

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class PatchEmbed(nn.Module):
    """Flattens 4x4 patches; the token count is hard-wired for 32x32 training images."""

    def __init__(self, patch: int = 4, dim: int = 8, image_size: int = 32) -> None:
        super().__init__()
        self.patch = patch
        self.num_patches = (image_size // patch) ** 2
        self.proj = nn.Linear(3 * patch * patch, dim)
        self.pos = nn.Parameter(torch.zeros(1, self.num_patches, dim))

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        b, c, h, w = images.shape
        p = self.patch
        patches = images.reshape(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
        tokens = self.proj(patches.reshape(b, -1, c * p * p))
        if tokens.shape[1] == self.num_patches:
            tokens = tokens + self.pos
        return tokens.mean(dim=1)


def main() -> dict[str, object]:
    torch.manual_seed(0)
    model = PatchEmbed().eval()
    example = (torch.randn(2, 3, 32, 32),)
    exported = torch.export.export(
        model,
        example,
        dynamic_shapes={"images": {0: Dim.AUTO, 1: Dim.AUTO, 2: Dim.AUTO, 3: Dim.AUTO}},
    )
    compiled = _compiled["model"] = torch.compile(model, backend="eager")
    outputs = [
        compiled(torch.randn(batch, 3, size, size))
        for batch, size in ((2, 32), (3, 32), (2, 48), (2, 64))
    ]
    return {"exported": exported, "outputs": outputs}


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    compiled = _compiled["model"]
    return [
        (compiled, (torch.randn(4, 3, 40, 40),), {}),
        # a wide 16x64 image also has 4 * 16 == 64 patches, so it takes the position branch
        (compiled, (torch.randn(4, 3, 16, 64),), {}),
    ]


if __name__ == "__main__":
    result = main()
    print(result["exported"].range_constraints, [tuple(o.shape) for o in result["outputs"]])

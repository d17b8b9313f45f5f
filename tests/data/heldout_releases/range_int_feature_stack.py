"""A multi-scale feature extractor takes the number of scales as a plain Python int.

`num_scales` drives `range(num_scales)` in a loop that builds a list of pooled tensors, so
Dynamo unrolls the loop and the int becomes a constant of the graph: every new scale count
compiles the function again.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def multiscale_features(image: torch.Tensor, num_scales: int) -> torch.Tensor:
    pyramid = []
    current = image
    for level in range(num_scales):
        pooled = F.adaptive_avg_pool2d(current, 1).flatten(1)
        pyramid.append(pooled * (level + 1))
        current = F.avg_pool2d(current, kernel_size=2, ceil_mode=True)
    return torch.cat(pyramid, dim=1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    extract = torch.compile(multiscale_features, backend="eager")
    image = torch.randn(2, 3, 32, 32)
    return [extract(image, scales) for scales in (2, 3, 4)]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A serving loop pins the batch dimension with `mark_static` (for CUDA graphs), then a
smaller last batch arrives.

The marked dimension is a constant in the entry: the last batch of 3 compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


def prepare(requests: torch.Tensor) -> torch.Tensor:
    torch._dynamo.mark_static(requests, 0)
    return requests


class Scorer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.EmbeddingBag(100, 16, mode="mean")
        self.out = nn.Linear(16, 2)

    def forward(self, requests: torch.Tensor) -> torch.Tensor:
        return self.out(self.emb(requests))


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    scorer = torch.compile(Scorer(), backend="eager")
    stream = torch.randint(0, 100, (19, 6))
    with torch.no_grad():
        return [scorer(prepare(stream[start : start + 8])) for start in range(0, 19, 8)]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

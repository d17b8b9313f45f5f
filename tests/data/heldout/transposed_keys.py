"""Attention scores whose keys arrive first contiguous, then as a transposed view.

A cache that stores keys as (batch, dim, seq) hands `k.transpose(1, 2)` to the scorer: same
sizes, different strides, so the entry's stride check fails and it compiles again.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class ScaledScores(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.query = nn.Linear(dim, dim, bias=False)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, hidden: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        q = self.query(hidden)
        scores = torch.matmul(q, keys.transpose(-1, -2)) * self.scale
        return scores.softmax(dim=-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    scorer = torch.compile(ScaledScores(16), backend="eager")
    hidden = torch.randn(2, 5, 16)
    keys = torch.randn(2, 7, 16)
    first = scorer(hidden, keys)
    cached_keys = keys.transpose(1, 2).contiguous()  # stored as (batch, dim, seq)
    second = scorer(hidden, cached_keys.transpose(1, 2))  # a non-contiguous view
    return [first, second]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

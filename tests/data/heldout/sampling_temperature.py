"""A language-model sampling head called with temperature 1.0, then 0.7, then 0.9.

A float argument is a constant in the first compile (`temperature == 1.0`): the second value
recompiles; torch then treats it as a symbol, so the third call hits.
"""

from __future__ import annotations

import torch
from torch import nn


class SamplingHead(nn.Module):
    def __init__(self, hidden: int, vocab: int) -> None:
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)

    def forward(
        self, hidden: torch.Tensor, temperature: float = 1.0, top_k: int = 5
    ) -> torch.Tensor:
        logits = self.proj(hidden[:, -1])
        scaled = logits / temperature
        values, _ = scaled.topk(top_k, dim=-1)
        scaled = scaled.masked_fill(scaled < values[:, -1:], float("-inf"))
        return scaled.softmax(dim=-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    head = torch.compile(SamplingHead(16, 50), backend="eager")
    hidden = torch.randn(2, 6, 16)
    with torch.no_grad():
        return [head(hidden, temperature=t) for t in (1.0, 0.7, 0.9)]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

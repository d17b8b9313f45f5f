"""A multi-head projection reshapes its hidden dimension into (heads, head_dim).

The `view` needs the sequence-times-hidden size to split exactly into heads; once the
sequence length is dynamic the view's divisibility requirement is an operator-level guard,
and sequence lengths that change the size relationships compile again.
"""

from __future__ import annotations

import torch
from torch import nn


class HeadSplit(nn.Module):
    def __init__(self, hidden: int = 12, heads: int = 3) -> None:
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        projected = self.proj(tokens)
        # Fold pairs of positions together: needs an even number of positions.
        folded = projected.reshape(tokens.shape[0], -1, 2 * projected.shape[-1])
        per_head = folded.view(folded.shape[0], folded.shape[1], self.heads, -1)
        return per_head.transpose(1, 2).sum(-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    split = torch.compile(HeadSplit(), backend="eager")
    outputs = []
    with torch.no_grad():
        for seq_len in (4, 6, 10):
            outputs.append(split(torch.randn(2, seq_len, 12)))
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

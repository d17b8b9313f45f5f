"""An early-exit network picks which head to use with an int index into a Python list,
and pads its output with a Python list built as `[0] * n`.

`heads[exit_at]` specializes on the int `exit_at`, and `[0.0] * pad_to` makes the padding
length a constant: each new index or padding length compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


class EarlyExitNet(nn.Module):
    def __init__(self, width: int = 16, depth: int = 4) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))
        self.heads = [nn.Linear(width, 3) for _ in range(depth)]
        for idx, head in enumerate(self.heads):
            self.add_module(f"head_{idx}", head)

    def forward(self, feats: torch.Tensor, exit_at: int, pad_to: int) -> torch.Tensor:
        hidden = feats
        for block in self.blocks[: exit_at + 1]:
            hidden = torch.relu(block(hidden))
        logits = self.heads[exit_at](hidden)
        padding = torch.tensor([0.0] * pad_to).expand(logits.shape[0], pad_to)
        return torch.cat([logits, padding], dim=1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    net = EarlyExitNet()
    compiled = torch.compile(net, backend="eager")
    feats = torch.randn(5, 16)
    outputs = []
    with torch.no_grad():
        for exit_at, pad_to in [(1, 2), (2, 2), (2, 5), (3, 1)]:
            outputs.append(compiled(feats, exit_at, pad_to))
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

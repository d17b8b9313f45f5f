"""A feed-forward block run in float32, then inside CPU autocast to bfloat16.

Autocast is global state checked by every entry: the autocast call compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


class FeedForward(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.up(self.norm(x))
        return x + self.down(nn.functional.silu(h))


def run_block(block: nn.Module, x: torch.Tensor, *, mixed: bool) -> torch.Tensor:
    if mixed:
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            return block(x)
    return block(x)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    block = torch.compile(FeedForward(32, 64), backend="eager")
    x = torch.randn(3, 10, 32)
    with torch.no_grad():
        return [run_block(block, x, mixed=False), run_block(block, x, mixed=True)]


if __name__ == "__main__":
    print([o.dtype for o in main()])

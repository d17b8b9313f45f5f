"""A residual block with a hand-written dropout that branches on `self.training`.

Training, then `model.eval()` for a validation pass, then back to training: the eval call
fails the entry's `self.training == True` check and compiles once; the last call hits.
"""

from __future__ import annotations

import torch
from torch import nn


class StochasticResidual(nn.Module):
    def __init__(self, dim: int, drop: float = 0.1) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.drop = drop

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        update = torch.relu(self.fc(x))
        if self.training:
            keep = (torch.rand_like(update) > self.drop).to(update.dtype)
            update = update * keep / (1.0 - self.drop)
        return x + update


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    block = StochasticResidual(24)
    compiled = torch.compile(block, backend="eager")
    x = torch.randn(5, 24)
    outputs = [compiled(x).detach()]
    block.eval()
    outputs.append(compiled(x).detach())  # validation: grad mode unchanged, only eval()
    block.train()
    outputs.append(compiled(x).detach())
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

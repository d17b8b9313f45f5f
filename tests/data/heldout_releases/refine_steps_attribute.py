"""An iterative refiner keeps its number of refinement steps as an int attribute on the
module, and the caller raises it during a curriculum.

Dynamo reads `self.num_steps` as a constant and guards on its value: each change compiles
the forward again.
"""

from __future__ import annotations

import torch
from torch import nn


class IterativeRefiner(nn.Module):
    def __init__(self, dim: int = 10) -> None:
        super().__init__()
        self.update = nn.Linear(dim, dim)
        self.num_steps = 1

    def forward(self, state: torch.Tensor) -> torch.Tensor:
        for _ in range(self.num_steps):
            state = state + 0.1 * torch.tanh(self.update(state))
        return state


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    refiner = IterativeRefiner()
    compiled = torch.compile(refiner, backend="eager")
    state = torch.randn(4, 10)
    outputs = []
    with torch.no_grad():
        for steps in (1, 2, 2, 3):
            refiner.num_steps = steps
            outputs.append(compiled(state))
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

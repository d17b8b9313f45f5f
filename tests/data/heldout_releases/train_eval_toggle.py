"""A training loop alternates between training steps and validation, switching the
compiled model with `train()` and `eval()`.

Dropout and batch norm behave differently in each mode and Dynamo guards on
`module.training`: the first switch in each direction compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


class SmallClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = SmallClassifier()
    compiled = torch.compile(model, backend="eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    inputs, targets = torch.randn(6, 8), torch.randint(0, 3, (6,))
    val_outputs = []
    for _epoch in range(2):
        model.train()
        loss = nn.functional.cross_entropy(compiled(inputs), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val_outputs.append(compiled(inputs))
    return val_outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

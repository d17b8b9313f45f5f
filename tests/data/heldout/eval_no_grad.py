"""A regression model trained a step with grad enabled, then validated under torch.no_grad().

Grad mode is global state that every entry checks: the validation call compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x).squeeze(-1)


def train_step(
    model: nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor
) -> float:
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return float(loss)


def validate(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    with torch.no_grad():
        return float(nn.functional.mse_loss(model(x), y))


def main() -> list[float]:
    torch.manual_seed(0)
    net = Regressor()
    compiled = torch.compile(net, backend="aot_eager")
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x, y = torch.randn(16, 6), torch.randn(16)
    return [train_step(compiled, opt, x, y), validate(compiled, x, y)]


if __name__ == "__main__":
    print(main())

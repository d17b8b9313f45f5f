"""A compiled training step that calls `opt.step()` after backward, under a step-decay lr schedule.

Five steps of SGD with momentum (eager backend); lr 0.1, 0.1, 0.05, 0.05, 0.025 written into
`opt.param_groups` as python floats; batch 16 for three steps, then 10.  The compiled step
graph-breaks at `loss.backward()` (not traced), inside the optimizer's step wrapper
(a user-inserted graph break in torch/optim/optimizer.py) and at `opt.zero_grad` (marked not
to be traced), so `SGD.step` becomes its own frame.  That frame recompiles twice: on the
second step because the momentum buffers now exist
(`len(self.state[...]) != 0` failed), and at lr 0.05 on `self.param_groups[0]['lr'] == 0.1`
(after which lr is a symbol, so 0.025 hits).  `train_step` itself recompiles once, when
the batch goes 16 -> 10 (`targets` size at index 0).  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(features).squeeze(-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = Regressor()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def train_step(features: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        loss = nn.functional.mse_loss(model(features), targets)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss.detach()

    compiled_step = torch.compile(train_step, backend="eager")
    losses = []
    lrs = [0.1, 0.1, 0.05, 0.05, 0.025]  # step decay, as a python float in param_groups
    for step, lr in enumerate(lrs):
        for group in opt.param_groups:
            group["lr"] = lr
        batch = 16 if step < 3 else 10
        losses.append(compiled_step(torch.randn(batch, 6), torch.randn(batch)))
    return losses


if __name__ == "__main__":
    print([round(float(x), 4) for x in main()])

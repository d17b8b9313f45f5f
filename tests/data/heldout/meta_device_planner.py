"""A memory planner runs the model's loss on meta tensors to get output shapes, after a real
CPU step.

The device is part of every tensor check: the meta call compiles again.
"""

from __future__ import annotations

import torch
from torch.nn import functional as F  # noqa: N812


def contrastive_loss(a: torch.Tensor, b: torch.Tensor, tau: torch.Tensor) -> torch.Tensor:
    a = F.normalize(a, dim=-1)
    b = F.normalize(b, dim=-1)
    logits = a @ b.T / tau
    labels = torch.arange(a.shape[0], device=a.device)
    return F.cross_entropy(logits, labels)


def plan(loss_fn, batch: int, dim: int) -> torch.Size:
    a = torch.empty(batch, dim, device="meta")
    b = torch.empty(batch, dim, device="meta")
    return loss_fn(a, b, torch.tensor(0.07, device="meta")).shape


def main() -> list[object]:
    torch.manual_seed(0)
    loss_fn = torch.compile(contrastive_loss, backend="eager")
    real = loss_fn(torch.randn(8, 32), torch.randn(8, 32), torch.tensor(0.07))
    return [real, plan(loss_fn, 8, 32)]


if __name__ == "__main__":
    print(main())

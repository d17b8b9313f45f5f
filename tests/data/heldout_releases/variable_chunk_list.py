"""A gradient-accumulation helper sums a list of loss tensors whose length changes from one
step to the next (the last step of an epoch has fewer micro-batches).

Dynamo guards on the length of the list argument, so each new length compiles again.
"""

from __future__ import annotations

import torch


def accumulate(losses: list[torch.Tensor], scale: torch.Tensor) -> torch.Tensor:
    total = torch.zeros(())
    for loss in losses:
        total = total + loss.mean()
    return total * scale / len(losses)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    combine = torch.compile(accumulate, backend="eager")
    scale = torch.tensor(0.5)
    micro_batches = [torch.randn(4) for _ in range(10)]
    results = []
    for count in (4, 4, 3, 2):
        results.append(combine(micro_batches[:count], scale))
    return results


if __name__ == "__main__":
    print([o.item() for o in main()])

"""A collate step marks every batch dynamic within min=2, max=64; one long batch has 128 rows.

The first compile's symbol is bounded to [2, 64], so the 128-row batch violates the marked
range and compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


def collate(rows: list[torch.Tensor]) -> torch.Tensor:
    batch = torch.stack(rows)
    torch._dynamo.mark_dynamic(batch, 0, min=2, max=64)
    return batch


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        return self.net(batch).mean(dim=0)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    encoder = torch.compile(Encoder(), backend="eager")
    outputs = [encoder(collate([torch.randn(8) for _ in range(rows)])) for rows in (16, 32)]
    long_batch = torch.randn(128, 8)  # a straggler batch built without the collate step
    outputs.append(encoder(long_batch))
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A loader declares the batch dimension dynamic with bounds via
`torch._dynamo.mark_dynamic(x, 0, min=2, max=8)`, then an oversized batch of 16 arrives.

The first compile guards `2 <= size <= 8`. The oversized batch fails that guard; because it
is still marked with the same bounds, the recompile raises a constraint violation, which the
loop catches and skips. An unmarked oversized batch afterwards compiles again normally.
"""

from __future__ import annotations

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 4))

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        return self.net(batch).mean(0)


def load(batch_size: int, mark: bool) -> torch.Tensor:
    batch = torch.randn(batch_size, 6)
    if mark:
        torch._dynamo.mark_dynamic(batch, 0, min=2, max=8)
    return batch


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    encoder = torch.compile(Encoder(), backend="eager")
    outputs = []
    with torch.no_grad():
        for batch_size, mark in [(4, True), (6, True), (16, True), (16, False)]:
            try:
                outputs.append(encoder(load(batch_size, mark)))
            except Exception as err:  # the marked batch of 16 raises a constraint violation
                print(f"batch {batch_size} skipped: {type(err).__name__}")
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

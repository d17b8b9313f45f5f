"""A GRU encoder written as a python loop over time steps, compiled, at varying sequence lengths.

`for t in range(x.shape[1])` unrolls the loop, so the sequence length is specialized even after
Dynamo tries to make it dynamic: length 5 compiles, 7 recompiles on `tensor 'x' size mismatch at
index 1. expected 5, actual 7` (the size is marked dynamic, but `range` burns 7 into the graph), and
9 recompiles again on `expected 7, actual 9` (3 compiles in main()).  In next_calls(), batch 3 at
length 7 recompiles on `size mismatch at index 0` (the batch was static), batch 4 at length 7 is
then served from the cache, and length 6 recompiles on `size mismatch at index 1`.  Same on
torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

_COMPILED = None


class StepwiseGRU(nn.Module):
    def __init__(self, input_size: int = 8, hidden_size: int = 16) -> None:
        super().__init__()
        self.cell = nn.GRUCell(input_size, hidden_size)
        self.hidden_size = hidden_size
        self.readout = nn.Linear(hidden_size, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        h = x.new_zeros(batch, self.hidden_size)
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
        return self.readout(h)


def main() -> list[torch.Tensor]:
    global _COMPILED
    torch.manual_seed(0)
    _COMPILED = torch.compile(StepwiseGRU(), backend="eager")
    return [_COMPILED(torch.randn(2, seq_len, 8)) for seq_len in (5, 7, 9)]


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    return [
        # Seen length, new batch sizes.
        (_COMPILED, (torch.randn(3, 7, 8),), {}),
        (_COMPILED, (torch.randn(4, 7, 8),), {}),
        # A new length.
        (_COMPILED, (torch.randn(2, 6, 8),), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

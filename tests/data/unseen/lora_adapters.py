"""A Linear layer with a list of LoRA adapters; the set of active adapters changes per request.

Requests (batch, active adapters): (2,[0]), (3,[0]), (5,[0,2]), (4,[1,3]), (6,[0,1,2]).
Five compiles: the first is static; batch 3 fails `hidden` size at index 0 and recompiles with
a dynamic batch; [0,2] fails `len(active) == 1`; [1,3] fails `active[0] == 0` (the adapter
index picks a submodule, so it is a constant); [0,1,2] fails `len(active) == 2`.  In
next_calls(), batch 9 with adapter [0] hits the dynamic-batch graph, and four adapters
recompile on `len(active)`.  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class LoRALinear(nn.Module):
    def __init__(self, dim: int, rank: int, num_adapters: int) -> None:
        super().__init__()
        self.base = nn.Linear(dim, dim)
        self.lora_a = nn.ModuleList(nn.Linear(dim, rank, bias=False) for _ in range(num_adapters))
        self.lora_b = nn.ModuleList(nn.Linear(rank, dim, bias=False) for _ in range(num_adapters))
        self.scaling = 0.5

    def forward(self, hidden: torch.Tensor, active: list[int]) -> torch.Tensor:
        out = self.base(hidden)
        for idx in active:
            out = out + self.scaling * self.lora_b[idx](self.lora_a[idx](hidden))
        return out


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    layer = _compiled["layer"] = torch.compile(
        LoRALinear(dim=16, rank=4, num_adapters=4), backend="aot_eager"
    )
    requests = [
        (2, [0]),
        (3, [0]),
        (5, [0, 2]),
        (4, [1, 3]),
        (6, [0, 1, 2]),
    ]
    return [layer(torch.randn(batch, 7, 16), active) for batch, active in requests]


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    layer = _compiled["layer"]
    return [
        (layer, (torch.randn(9, 7, 16), [0]), {}),
        (layer, (torch.randn(3, 7, 16), [0, 1, 2, 3]), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

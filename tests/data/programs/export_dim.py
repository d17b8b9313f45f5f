"""torch.export with a Dim the model specializes (a branch on the size), and one it narrows."""

from __future__ import annotations

import torch
from torch.export import Dim


class Fixed(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] == 16:  # fixes T
            return x * 2
        return x + 1


class Bounded(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] > 15:  # narrows T
            return x * 2
        return x + 1


def workload() -> list[str]:
    """Both exports; each raises ``Constraints violated (T)!``, returned as text."""
    return [_error(Fixed()), _error(Bounded())]


def _error(model: torch.nn.Module) -> str:
    try:
        torch.export.export(model, (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim("T")}})
    except torch._dynamo.exc.UserError as error:
        return str(error).splitlines()[0]
    return ""


if __name__ == "__main__":
    print(workload())

"""An MLP scored on plain inputs, then on inputs that require grad for a saliency map.

The input's requires_grad flag is part of the entry's tensor check, so the saliency call
compiles again.
"""

from __future__ import annotations

import torch
from torch import nn


def build_mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(20, 32), nn.GELU(), nn.Linear(32, 1))


def score(model: nn.Module, inputs: torch.Tensor) -> torch.Tensor:
    return model(inputs).squeeze(-1)


def saliency(compiled_score, model: nn.Module, inputs: torch.Tensor) -> torch.Tensor:
    inputs = inputs.detach().requires_grad_(True)
    compiled_score(model, inputs).sum().backward()
    return inputs.grad.abs()


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = build_mlp()
    compiled_score = torch.compile(score, backend="aot_eager")
    batch = torch.randn(8, 20)
    plain = compiled_score(model, batch)
    sal = saliency(compiled_score, model, batch)
    return [plain.detach(), sal]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

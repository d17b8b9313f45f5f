"""A data pipeline step receives a batch dict; some batches carry an attention "mask" key,
some carry "weights", some neither.

`if "mask" in batch:` makes the key set part of the guards, so each new set of keys
compiles the step again.
"""

from __future__ import annotations

import torch


def pooled_embedding(batch: dict[str, torch.Tensor]) -> torch.Tensor:
    hidden = batch["hidden"]
    if "mask" in batch:
        mask = batch["mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
    else:
        pooled = hidden.mean(1)
    if "weights" in batch:
        pooled = pooled * batch["weights"].unsqueeze(-1)
    return pooled


def make_batches() -> list[dict[str, torch.Tensor]]:
    hidden = torch.randn(3, 5, 8)
    mask = (torch.rand(3, 5) > 0.3).long()
    weights = torch.rand(3)
    return [
        {"hidden": hidden},
        {"hidden": hidden, "mask": mask},
        {"hidden": hidden, "mask": mask, "weights": weights},
        {"hidden": hidden, "weights": weights},
    ]


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    step = torch.compile(pooled_embedding, backend="eager")
    return [step(batch) for batch in make_batches()]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

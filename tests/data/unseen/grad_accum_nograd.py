"""Gradient accumulation with interleaved no-grad evaluation micro-steps and a smaller last batch.

46 samples in micro-batches of 8 (the last has 6), two micro-steps per optimizer step, and after
each optimizer step a validation forward of the same micro-batch under `torch.no_grad()`.  The
first forward compiles; the first no-grad forward recompiles on `GLOBAL_STATE changed:
grad_mode`; the last, 6-row micro-batch recompiles on `tensor 'x' size mismatch at index 0.
expected 8, actual 6` (with grad) and its no-grad validation forward recompiles on grad_mode
again (4 compiles in main(), aot_eager backend).  The micro-batches are slices of one dataset
tensor, so the dynamic graph also treats the storage offset as dynamic (the 6-row slice starts
at offset 480).  In next_calls(), a 5-row slice of another dataset tensor is served from the
cache; a freshly allocated 5-row batch (storage offset 0) recompiles on the 0/1-specialization
guard `2 <= x.storage_offset()`; a single row recompiles on `2 <= x.size()[0]`.  Same on torch
2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


_COMPILED = None


def main() -> list[float]:
    global _COMPILED
    torch.manual_seed(0)
    model = Classifier()
    compiled = _COMPILED = torch.compile(model, backend="aot_eager")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(46, 12)
    labels = torch.randint(0, 3, (46,))
    accum_steps = 2
    micro_batch = 8
    losses = []
    for step, start in enumerate(range(0, len(data), micro_batch)):
        x, y = data[start : start + micro_batch], labels[start : start + micro_batch]
        loss = F.cross_entropy(compiled(x), y) / accum_steps
        loss.backward()
        losses.append(loss.item())
        if (step + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
            # Quick validation on the same micro-batch, without building a graph.
            with torch.no_grad():
                losses.append(F.cross_entropy(compiled(x), y).item())
    optimizer.step()  # the leftover accumulated gradients of the last, smaller batch
    return losses


def next_calls() -> list[tuple[object, tuple, dict]]:
    """Training-mode forwards (grad enabled): a 5-row slice of a dataset tensor, as main() feeds
    the model, then a freshly allocated 5-row batch, then a single row."""
    assert _COMPILED is not None
    dataset = torch.randn(20, 12)
    return [
        (_COMPILED, (dataset[10:15],), {}),
        (_COMPILED, (torch.randn(5, 12),), {}),
        (_COMPILED, (torch.randn(1, 12),), {}),
    ]


if __name__ == "__main__":
    print(len(main()))

"""A per-sequence normaliser walks the batch with `for i in range(x.shape[0])`.

The batch size is used as a Python int to drive the loop, so Dynamo unrolls it and guards
on the exact size: each new batch size compiles again, even after the dimension would
otherwise have become dynamic.
"""

from __future__ import annotations

import torch


def normalise_rows(seqs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    rows = []
    for i in range(seqs.shape[0]):
        row = seqs[i]
        denom = lengths[i].clamp(min=1).to(row.dtype)
        rows.append((row - row.mean()) / denom)
    return torch.stack(rows)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    step = torch.compile(normalise_rows, backend="eager")
    results = []
    for batch in (4, 6, 3):
        seqs = torch.randn(batch, 10)
        lengths = torch.randint(1, 10, (batch,))
        results.append(step(seqs, lengths))
    return results


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A contrastive loss takes anchor and positive embeddings that happen to have the same
number of rows on the first calls and different numbers later.

Dynamo duck-sizes equal sizes into one symbol when the dimension becomes dynamic, so the
entry assumes both inputs always share that size; a pair with different row counts
compiles again.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def contrastive(anchors: torch.Tensor, positives: torch.Tensor) -> torch.Tensor:
    a = F.normalize(anchors, dim=-1)
    p = F.normalize(positives, dim=-1)
    sim = a @ p.T
    return sim.logsumexp(dim=-1).mean() - sim.max(dim=-1).values.mean()


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    loss_fn = torch.compile(contrastive, backend="eager")
    results = []
    for n_anchor, n_pos in [(4, 4), (6, 6), (8, 8), (6, 10)]:
        results.append(loss_fn(torch.randn(n_anchor, 16), torch.randn(n_pos, 16)))
    return results


if __name__ == "__main__":
    print([round(o.item(), 4) for o in main()])

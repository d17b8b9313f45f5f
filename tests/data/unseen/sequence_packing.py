"""Packed variable-length sequences, mean-pooled per sequence by a python list of cu_seqlens.

Four packed batches, each of three sequences (lengths [3,5,2], [4,4,4], [6,1,3], [2,7,5]).
The first call compiles static; the second fails `tokens` size at index 0 (10 vs 12) and
recompiles with a dynamic token count, but the list's python ints are still burned in as
slice bounds (`cu_seqlens[2] == 8`); the third batch fails that guard and compiles a third
time with the offsets symbolic; the fourth hits.  `len(cu_seqlens)` stays a constant, so in
next_calls() three sequences of new lengths hit the cache, and four sequences recompile on
`len(cu_seqlens) == 4`.  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import itertools

import torch
from torch import nn

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class PackedMeanPooler(nn.Module):
    """Encodes a flat [total_tokens, dim] batch and mean-pools each sequence by its offsets."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens: torch.Tensor, cu_seqlens: list[int]) -> torch.Tensor:
        hidden = torch.tanh(self.proj(tokens))
        pooled = []
        for start, end in itertools.pairwise(cu_seqlens):
            pooled.append(hidden[start:end].mean(dim=0))
        return torch.stack(pooled)


def pack(lengths: list[int], dim: int) -> tuple[torch.Tensor, list[int]]:
    offsets = [0]
    for n in lengths:
        offsets.append(offsets[-1] + n)
    return torch.randn(offsets[-1], dim), offsets


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    pooler = _compiled["pooler"] = torch.compile(PackedMeanPooler(8), backend="eager")
    outputs = []
    for lengths in ([3, 5, 2], [4, 4, 4], [6, 1, 3], [2, 7, 5]):
        tokens, cu_seqlens = pack(lengths, 8)
        outputs.append(pooler(tokens, cu_seqlens))
    return outputs


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    same_count, offsets_a = pack([5, 3, 8], 8)
    more_seqs, offsets_b = pack([2, 2, 3, 4], 8)
    pooler = _compiled["pooler"]
    return [
        (pooler, (same_count, offsets_a), {}),
        (pooler, (more_seqs, offsets_b), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

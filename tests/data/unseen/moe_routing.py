"""A mixture-of-experts layer whose compiled forward slices tokens by per-expert counts (python ints).

Routing runs eagerly and passes `counts` (from `bincount(..).tolist()`) into the compiled forward,
which loops over the experts and slices the sorted tokens with those ints.  The first call
specializes on every count; the second batch (same 32 tokens, other split) recompiles on
`counts[0] == 9` and makes the counts dynamic; the 48-token batch recompiles again on
`tensor 'order' size mismatch at index 0` (3 compiles in main()).  In next_calls(), a 40-token
batch is served by the dynamic graph, while an 8-token batch in which one expert gets 0 tokens
and one gets 1 recompiles on a contiguity guard `32*counts[1] >= 2` raised inside `F.linear`.
Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

_MOE: MoELayer | None = None
_COMPILED = None


class MoELayer(nn.Module):
    def __init__(self, dim: int = 16, num_experts: int = 4) -> None:
        super().__init__()
        self.router = nn.Linear(dim, num_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
            for _ in range(num_experts)
        )

    def route(self, tokens: torch.Tensor) -> tuple[torch.Tensor, list[int]]:
        """Top-1 routing, done eagerly: sort order and tokens per expert as python ints."""
        expert_ids = self.router(tokens).argmax(dim=-1)
        order = expert_ids.argsort(stable=True)
        counts = torch.bincount(expert_ids, minlength=len(self.experts)).tolist()
        return order, counts

    def forward(self, tokens: torch.Tensor, order: torch.Tensor, counts: list[int]) -> torch.Tensor:
        sorted_tokens = tokens[order]
        outputs = []
        start = 0
        for expert, count in zip(self.experts, counts):
            chunk = sorted_tokens[start : start + count]
            outputs.append(expert(chunk))
            start += count
        out_sorted = torch.cat(outputs, dim=0)
        out = torch.empty_like(out_sorted)
        out[order] = out_sorted
        return out


def _batch(num_tokens: int, seed: int) -> tuple[torch.Tensor, torch.Tensor, list[int]]:
    assert _MOE is not None
    gen = torch.Generator().manual_seed(seed)
    tokens = torch.randn(num_tokens, 16, generator=gen)
    with torch.no_grad():
        order, counts = _MOE.route(tokens)
    return tokens, order, counts


def main() -> list[torch.Tensor]:
    global _MOE, _COMPILED
    torch.manual_seed(0)
    _MOE = MoELayer()
    _COMPILED = torch.compile(_MOE, backend="eager")
    outs = []
    for num_tokens, seed in ((32, 0), (32, 1), (48, 2)):
        tokens, order, counts = _batch(num_tokens, seed)
        outs.append(_COMPILED(tokens, order, counts))
    return outs


def next_calls() -> list[tuple[object, tuple, dict]]:
    """A new token count with every expert busy, then a small batch where one expert gets no
    tokens and another gets exactly one."""
    assert _COMPILED is not None
    calls = []
    for num_tokens, seed in ((40, 3), (8, 0)):
        tokens, order, counts = _batch(num_tokens, seed)
        calls.append((_COMPILED, (tokens, order, counts), {}))
    return calls


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

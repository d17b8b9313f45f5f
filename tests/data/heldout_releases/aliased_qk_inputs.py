"""An attention score function is called for self-attention (the same tensor passed as both
query and key) and then for cross-attention (two different tensors).

Dynamo records that both arguments were the same object on the first call and guards on
that aliasing; passing two distinct tensors compiles again.
"""

from __future__ import annotations

import torch


def attention_scores(query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    scale = query.shape[-1] ** -0.5
    scores = torch.matmul(query, key.transpose(-2, -1)) * scale
    return scores.softmax(dim=-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    scores_fn = torch.compile(attention_scores, backend="aot_eager")
    tokens = torch.randn(2, 7, 8)
    memory = torch.randn(2, 7, 8)
    self_attn = scores_fn(tokens, tokens)
    cross_attn = scores_fn(tokens, memory)
    again_self = scores_fn(memory, memory)
    return [self_attn, cross_attn, again_self]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

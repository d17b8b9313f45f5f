"""A tiny decoder with a preallocated static KV cache: prefill a prompt, then decode token by token.

Prompts of length 5, 8, 6, each followed by 3 decode steps (`cache_position` is a python int).
The 5-token prefill compiles static (position 0); the first decode step fails `tokens` size
at index 1 (5 vs 1) and recompiles: the length stays 1 (0/1 specialization) but
`cache_position` becomes a symbol guarded `1 <= cache_position <= 31`, so later decode
steps hit; the 8-token prefill fails the size guard again and compiles a third graph with a
dynamic prompt length (`2 <= tokens.size()[1] <= 32`); the 6-token prompt hits.  In
next_calls(), a decode step at position 12 (a 12-token prompt) hits the decode graph, and a
1-token prompt prefilled at position 0 matches neither: the decode graph fails
`1 <= cache_position <= 31`, the prefill graph `2 <= tokens.size()[1]`, so it recompiles.
Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

MAX_LEN = 32
# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class StaticCacheDecoder(nn.Module):
    def __init__(self, vocab: int = 40, dim: int = 16, max_len: int = MAX_LEN) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, vocab)
        self.register_buffer("k_cache", torch.zeros(1, max_len, dim), persistent=False)
        self.register_buffer("v_cache", torch.zeros(1, max_len, dim), persistent=False)

    def reset(self) -> None:
        self.k_cache.zero_()
        self.v_cache.zero_()

    def forward(self, tokens: torch.Tensor, cache_position: int) -> torch.Tensor:
        x = self.embed(tokens)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        end = cache_position + tokens.shape[1]
        self.k_cache[:, cache_position:end] = k
        self.v_cache[:, cache_position:end] = v
        keys = self.k_cache[:, :end]
        values = self.v_cache[:, :end]
        scores = q @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5
        causal = torch.ones(tokens.shape[1], end, dtype=torch.bool).tril(diagonal=cache_position)
        scores = scores.masked_fill(~causal, float("-inf"))
        return self.out(F.softmax(scores, dim=-1) @ values)


def generate(decoder: nn.Module, prompt: torch.Tensor, steps: int) -> torch.Tensor:
    logits = decoder(prompt, 0)
    position = prompt.shape[1]
    generated = [prompt]
    for _ in range(steps):
        next_token = logits[:, -1:].argmax(dim=-1)
        generated.append(next_token)
        logits = decoder(next_token, position)
        position += 1
    return torch.cat(generated, dim=1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    model = StaticCacheDecoder().eval().requires_grad_(False)
    decoder = _compiled["decoder"] = torch.compile(model, backend="eager")
    outputs = []
    for prompt_len in (5, 8, 6):
        model.reset()
        prompt = torch.randint(0, 40, (1, prompt_len))
        outputs.append(generate(decoder, prompt, steps=3))
    return outputs


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    decoder = _compiled["decoder"]
    return [
        # a decode step after a 12-token prompt: a new cache position
        (decoder, (torch.randint(0, 40, (1, 1)), 12), {}),
        # a prompt that is a single token (e.g. only BOS), prefilled at position 0
        (decoder, (torch.randint(0, 40, (1, 1)), 0), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

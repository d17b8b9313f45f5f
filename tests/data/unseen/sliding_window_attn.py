"""Local (sliding-window) self-attention whose window size is an int attribute changed between calls.

With window 4, length 16 compiles static and length 24 recompiles on `tensor 'x' size mismatch
at index 1. expected 16, actual 24` (the length becomes dynamic).  Setting `module.window = 8`
recompiles on `self.window == 4` (torch adds a HINT that integer attributes of an nn.Module are
static); length 32 is then served by that graph (3 compiles in main()).  In next_calls(),
length 40 is served from the cache, and batch size 1 recompiles on `tensor 'x' size mismatch at
index 0. expected 2, actual 1` (the batch was static; 1 would be specialized anyway).  Same on
torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

_MODEL: SlidingWindowAttention | None = None
_COMPILED = None


class SlidingWindowAttention(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4, window: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.window = window
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, dim = x.shape
        q, k, v = self.qkv(x).view(batch, seq, 3, self.heads, dim // self.heads).permute(2, 0, 3, 1, 4)
        pos = torch.arange(seq)
        distance = pos.unsqueeze(0) - pos.unsqueeze(1)
        # Causal, and at most `window` tokens back.
        allowed = (distance <= 0) & (distance > -self.window)
        attn = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.out(attn.transpose(1, 2).reshape(batch, seq, dim))


def main() -> list[torch.Tensor]:
    global _MODEL, _COMPILED
    torch.manual_seed(0)
    _MODEL = SlidingWindowAttention(window=4)
    _COMPILED = torch.compile(_MODEL, backend="eager")
    outs = [_COMPILED(torch.randn(2, seq, 32)) for seq in (16, 24)]
    _MODEL.window = 8
    outs += [_COMPILED(torch.randn(2, seq, 32)) for seq in (24, 32)]
    return outs


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _MODEL is not None and _COMPILED is not None
    # The window is left at 8 by main(); a new length and a new batch size.
    return [
        (_COMPILED, (torch.randn(2, 40, 32),), {}),
        (_COMPILED, (torch.randn(1, 40, 32),), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A compiled encoder that pads the sequence length up to a multiple of 8 before attention.

`pad = (-n) % 8` is computed from the symbolic length and handed to `F.pad`; Dynamo keeps it
symbolic rather than specializing on `n % 8`.  Length 13 compiles static, 16 recompiles on
`tensor 'token_ids' size mismatch at index 1. expected 13, actual 16`, and 17, 24 and 31 are all
served by that dynamic graph (2 compiles in main()).  In next_calls(), length 40 is served from
the cache; length 1 recompiles on the 0/1-specialization guard `2 <= token_ids.size()[1]`; a
batch of 4 recompiles on `size mismatch at index 0` (the batch was static).  Same on torch 2.13
and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


class PaddedEncoder(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 32, multiple: int = 8) -> None:
        super().__init__()
        self.multiple = multiple
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)

    def forward(self, token_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        n = token_ids.shape[1]
        pad = (-n) % self.multiple
        token_ids = F.pad(token_ids, (0, pad), value=0)
        attention_mask = F.pad(attention_mask, (0, pad), value=False)
        hidden = self.encoder(self.embed(token_ids), src_key_padding_mask=~attention_mask)
        # Drop the padding again before returning.
        return hidden[:, :n]


_COMPILED = None


def _batch(batch: int, length: int) -> tuple[torch.Tensor, torch.Tensor]:
    token_ids = torch.randint(1, 100, (batch, length))
    mask = torch.ones(batch, length, dtype=torch.bool)
    mask[0, length // 2 :] = False  # the first sequence is shorter
    return token_ids, mask


def main() -> list[torch.Tensor]:
    global _COMPILED
    torch.manual_seed(0)
    _COMPILED = torch.compile(PaddedEncoder().eval(), backend="eager")
    return [_COMPILED(*_batch(2, length)) for length in (13, 16, 17, 24, 31)]


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    return [
        (_COMPILED, _batch(2, 40), {}),
        (_COMPILED, _batch(2, 1), {}),
        (_COMPILED, _batch(4, 20), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

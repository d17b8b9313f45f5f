"""Sinusoidal position encodings built with the default dtype, before and after
`torch.set_default_dtype(torch.float64)` (as a numerics check would do).

The default dtype is global state read while tracing `torch.arange`/`torch.exp`: the second
call compiles again.
"""

from __future__ import annotations

import math

import torch


def positions(tokens: torch.Tensor, dim: int = 16) -> torch.Tensor:
    seq = tokens.shape[-1]
    pos = torch.arange(seq).unsqueeze(1).to(torch.get_default_dtype())
    freq = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
    table = torch.zeros(seq, dim)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table


def main() -> list[torch.Tensor]:
    encode = torch.compile(positions, backend="eager")
    tokens = torch.randint(0, 100, (2, 12))
    outputs = [encode(tokens)]
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        outputs.append(encode(tokens))
    finally:
        torch.set_default_dtype(previous)
    return outputs


if __name__ == "__main__":
    print([o.dtype for o in main()])

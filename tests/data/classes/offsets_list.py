"""Class 1: an int of a list of sequence offsets, static only by default, then dynamic.

The first compile holds every offset constant (everything is static at first); the second
call changes ``offsets[1]`` and automatic dynamic recompiles.  Torch's failed check is the
first compile's ``EQUALS_MATCH`` on ``L['offsets'][1]``: static by default, although the
offsets are later used as slice bounds.
"""

from __future__ import annotations

import torch


def pooled(tokens: torch.Tensor, offsets: list[int]) -> torch.Tensor:
    pieces = []
    for i in range(len(offsets) - 1):
        pieces.append(tokens[offsets[i] : offsets[i + 1]].sum(0))  # noqa: PERF401 - as users write it
    return torch.stack(pieces)


def main() -> list[torch.Tensor]:
    compiled = torch.compile(pooled, backend="eager")
    tokens = torch.randn(12, 4)
    return [compiled(tokens, offsets) for offsets in ([0, 3, 12], [0, 5, 12], [0, 7, 12])]


if __name__ == "__main__":
    main()

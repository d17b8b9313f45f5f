"""Class 9: ``torch._dynamo.mark_static(x, 1)`` in the caller holds a dim static.

The width varies, and each new width recompiles: the mark is the cause, and torch's
account points at the mark, not at the first line that used the size.
"""

from __future__ import annotations

import torch


def normalize(x: torch.Tensor) -> torch.Tensor:
    width = x.shape[1]
    return x / width + x.mean(1, keepdim=True)


def main() -> list[torch.Tensor]:
    compiled = torch.compile(normalize, backend="eager")
    outs = []
    for batch, width in ((2, 8), (3, 8), (3, 12), (4, 16)):
        x = torch.randn(batch, width)
        torch._dynamo.mark_static(x, 1)
        outs.append(compiled(x))
    return outs


if __name__ == "__main__":
    main()

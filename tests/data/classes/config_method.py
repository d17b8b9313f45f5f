"""Class 1: an int field of a dataclass, read by a compiled bound method, changes.

``torch.compile(cfg.crop)`` compiles the method with ``self.size`` constant (static by
default); setting ``cfg.size`` recompiles with the field dynamic.  Torch's failed check is
the first compile's ``EQUALS_MATCH`` on the field.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class Crop:
    size: int

    def crop(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, : self.size] * 2


def main() -> list[torch.Tensor]:
    cfg = Crop(4)
    compiled = torch.compile(cfg.crop, backend="eager")
    x = torch.randn(3, 16)
    outs = [compiled(x)]
    for size in (6, 9):
        cfg.size = size
        outs.append(compiled(x))
    return outs


if __name__ == "__main__":
    main()

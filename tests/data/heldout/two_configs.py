"""Two model families each define their own `Config` class; one compiled scaling function is
called with an instance of each.

Both classes are named `Config` (same qualified name), but the entry checks the object's
type id: the second family's config compiles again.
"""

from __future__ import annotations

import torch


def family_a():
    class Config:
        def __init__(self) -> None:
            self.scale = 0.5
            self.shift = 1.0

    return Config()


def family_b():
    class Config:
        def __init__(self) -> None:
            self.scale = 0.5
            self.shift = 1.0

    return Config()


def apply_config(x: torch.Tensor, cfg) -> torch.Tensor:
    return torch.tanh(x * cfg.scale + cfg.shift)


def main() -> list[torch.Tensor]:
    fn = torch.compile(apply_config, backend="eager")
    x = torch.randn(4, 4)
    return [fn(x, family_a()), fn(x, family_b())]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

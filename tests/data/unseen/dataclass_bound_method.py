"""A compiled bound method of a @dataclass config whose int fields (window, stride) drive framing.

`torch.compile(cfg.apply)`; the config object is mutated between calls (batch, window, stride):
(2,8,4), (4,8,4), (3,6,4), (2,8,8), (5,6,4).  Four compiles: batch 4 fails `signal` size at
index 0 and recompiles with a dynamic batch; window 6 fails `self.window == 8` (the field
bounds the frame loop and the slices, and is read through `self` as a python int); stride 8
fails `self.stride == 4`; the last call hits the window-6 graph.  In next_calls(), batch 6
hits, and a 40-sample signal fails `signal` size at index 1 (the time length stays a
constant: it fixes how many frames the loop unrolls) and recompiles.  Same counts on torch
2.13 and 2.15; 2.15 attributes the stride guard to the `while` line instead of
`start += self.stride`.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


@dataclass
class FrameConfig:
    window: int = 8
    stride: int = 4

    def apply(self, signal: torch.Tensor) -> torch.Tensor:
        """Cuts a [batch, time] signal into overlapping frames and returns per-frame energy."""
        frames = []
        start = 0
        while start + self.window <= signal.shape[-1]:
            frames.append(signal[:, start : start + self.window])
            start += self.stride
        stacked = torch.stack(frames, dim=1)
        return stacked.pow(2).mean(dim=-1)


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    config = FrameConfig(window=8, stride=4)
    apply = _compiled["apply"] = torch.compile(config.apply, backend="eager")
    outputs = []
    # tuning the framing on the same config object: the compiled method reads the new fields
    for batch, window, stride in ((2, 8, 4), (4, 8, 4), (3, 6, 4), (2, 8, 8), (5, 6, 4)):
        config.window = window
        config.stride = stride
        outputs.append(apply(torch.randn(batch, 32)))
    return outputs


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    apply = _compiled["apply"]
    return [
        (apply, (torch.randn(6, 32),), {}),
        (apply, (torch.randn(2, 40),), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

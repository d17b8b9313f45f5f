"""An evaluation harness runs the same compiled scoring function on float32 inputs, then on
bfloat16 inputs from a mixed-precision run, then on float64 reference inputs.

Tensor guards include the dtype, so each new input dtype compiles the function again.
"""

from __future__ import annotations

import torch


def rms_score(pred: torch.Tensor) -> torch.Tensor:
    centred = pred - pred.mean(dim=-1, keepdim=True)
    return centred.pow(2).mean(dim=-1).sqrt()


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    score = torch.compile(rms_score, backend="aot_eager")
    base = torch.randn(3, 9)
    return [score(base.to(dtype)) for dtype in (torch.float32, torch.float32, torch.bfloat16, torch.float64)]


if __name__ == "__main__":
    print([o.dtype for o in main()])

"""A sampler divides logits by a Python float temperature that an annealing schedule lowers
every few steps.

Python floats are specialised by default, so the temperature is baked into the graph and
each new value compiles the function again.
"""

from __future__ import annotations

import torch


def sample_probs(logits: torch.Tensor, temperature: float, top_k: int = 5) -> torch.Tensor:
    scaled = logits / temperature
    values, indices = scaled.topk(top_k, dim=-1)
    probs = torch.zeros_like(scaled).scatter(-1, indices, values.softmax(-1))
    return probs


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    sampler = torch.compile(sample_probs, backend="eager")
    logits = torch.randn(2, 20)
    schedule = [1.0, 1.0, 0.8, 0.6]
    return [sampler(logits, temp) for temp in schedule]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""A feature standardizer used by a tabular pipeline, fed float32, then float64, then bfloat16.

Each input dtype fails the cached entry's tensor check (dtype), so each compiles once.
"""

from __future__ import annotations

import torch


def standardize(features: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    mean = features.mean(dim=0, keepdim=True)
    var = features.var(dim=0, unbiased=False, keepdim=True)
    return (features - mean) * torch.rsqrt(var + eps)


def log_softmax_scores(features: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    z = standardize(features) @ weight.to(features.dtype)
    return z - torch.logsumexp(z, dim=-1, keepdim=True)


def main() -> list[torch.Tensor]:
    scorer = torch.compile(log_softmax_scores, backend="eager")
    torch.manual_seed(0)
    weight = torch.randn(12, 3)
    table = torch.randn(64, 12)
    outputs = [scorer(table, weight)]
    outputs.append(scorer(table.double(), weight))  # a float64 table from pandas
    outputs.append(scorer(table.bfloat16(), weight))  # a bfloat16 table for a small model
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])

"""Floats: sampling logits at a temperature that changes; the first compile holds it constant."""

import torch


def soften(logits, temperature):
    scaled = logits / temperature  # USES: temperature
    return torch.softmax(scaled, dim=-1)


def workload():
    compiled = torch.compile(soften, backend="eager")
    logits = torch.linspace(-2, 2, 10).reshape(2, 5)
    return [compiled(logits, t) for t in (1.0, 0.7, 1.3)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

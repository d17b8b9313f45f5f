"""A float argument (a temperature) that changes each call: each value is a constant."""

import torch


def soften(logits, temperature):
    return (logits / temperature).softmax(-1)


def workload():
    compiled = torch.compile(soften, backend="eager")
    logits = torch.arange(8.0).reshape(2, 4)
    return [compiled(logits, t) for t in (0.5, 1.0, 2.0, 4.0)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

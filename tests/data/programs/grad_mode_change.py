"""Global state: a step runs with gradients on, then under torch.no_grad() for evaluation."""

import torch


def step(x, w):
    return torch.tanh(x @ w).sum(1)


def workload():
    compiled = torch.compile(step, backend="eager")
    w = torch.linspace(-1, 1, 12).reshape(4, 3)
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x, w)
    with torch.no_grad():
        second = compiled(x, w)  # CALL: no_grad
    return [first, second]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

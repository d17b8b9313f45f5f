"""A data-dependent branch on a value computed inside the function (not on an argument)."""

import torch


def gate(x, w):
    h = x @ w
    if h.sum() > 0:  # BRANCH: computed
        return h.relu()
    return h.tanh()


def workload():
    compiled = torch.compile(gate, backend="eager")
    torch.manual_seed(0)
    w = torch.randn(4, 4)
    return [compiled(torch.randn(3, 4) * s, w) for s in (1.0, -1.0, 2.0)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

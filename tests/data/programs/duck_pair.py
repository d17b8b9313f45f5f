"""duck_sizing: two inputs equal in size at the first call share one symbol."""

import torch


def combine(a, b):
    return a.sum() + b.sum()


def workload():
    compiled = torch.compile(combine, backend="eager", dynamic=True)
    sizes = [(4, 4), (4, 5), (8, 3), (6, 6)]
    return [compiled(torch.ones(m), torch.ones(n)) for m, n in sizes]


if __name__ == "__main__":
    print([t.item() for t in workload()])

"""Recompiles that share their best fix: a branch on a size (three recompiles, one
``torch.cond``) and an int loop count (two, one ``torch.as_tensor``)."""

import torch


def branchy(x, steps):
    for _ in range(steps):
        x = x + 1
    if x.shape[0] > 8:
        return x * 2
    return x - 1


def workload():
    compiled = torch.compile(branchy, backend="eager", dynamic=True)
    calls = ((4, 1), (12, 1), (4, 1), (12, 2), (4, 3), (12, 3))
    return [compiled(torch.ones(n), steps) for n, steps in calls]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

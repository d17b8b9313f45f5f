"""zero_one: sizes 0 and 1 are specialized even when the dimension is dynamic."""

import torch


def norm(x):
    return x / x.sum(0, keepdim=True)


def workload():
    compiled = torch.compile(norm, backend="eager")
    return [compiled(torch.arange(1.0, n * 2 + 1).reshape(n, 2)) for n in (3, 5, 1, 7)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

"""int_specialized: an int argument used as a loop count, so each value compiles anew."""

import torch


def repeat(x, n):
    for _ in range(n):
        x = x * 2
    return x


def workload():
    compiled = torch.compile(repeat, backend="eager")
    return [compiled(torch.ones(3), n) for n in (1, 2, 3, 4)]


def build():
    """The compiled function again: Dynamo's cache on the code serves it (conformance reruns)."""
    return torch.compile(repeat, backend="eager")


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

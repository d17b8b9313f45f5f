"""static_by_default: a batch size that changes; the first compile makes it a constant."""

import torch


def scale(x):
    return (x * 2).sum(0)


def workload():
    compiled = torch.compile(scale, backend="eager")
    return [compiled(torch.arange(n * 3.0).reshape(n, 3)) for n in (4, 8, 16)]


def build():
    """The compiled function again: Dynamo's cache on the code serves it (conformance reruns)."""
    return torch.compile(scale, backend="eager")


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

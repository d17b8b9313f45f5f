"""mark_dynamic with a range: the batch is marked for 2..8, then a batch of 16 arrives."""

import torch


def pool(x):
    return x.mean(0)


def workload():
    compiled = torch.compile(pool, backend="eager")
    small = torch.arange(12.0).reshape(3, 4)
    torch._dynamo.mark_dynamic(small, 0, min=2, max=8)  # MARKS: range
    first = compiled(small)
    big = torch.arange(64.0).reshape(16, 4)
    second = compiled(big)
    return [first, second]


def build():
    """The compiled function again: Dynamo's cache on the code serves it (conformance reruns)."""
    return torch.compile(pool, backend="eager")


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

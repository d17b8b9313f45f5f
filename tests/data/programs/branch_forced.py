"""A width the code forces (``== 8``) next to a batch size and an int that it does not.

Marking the width dynamic cannot help: the branch specializes it again, so its compiles
stay.  The batch size, marked, saves its recompile; the int costs nothing either way.
"""

import torch


def head(x, n):
    h = x * 2
    if h.shape[1] == 8:  # FORCES: width
        return h.sum(1) * n
    return h.mean(1) * n


CALLS = ((2, 8), (3, 8), (4, 6))


def workload():
    compiled = torch.compile(head, backend="eager")
    return [compiled(torch.arange(b * w * 1.0).reshape(b, w), 3) for b, w in CALLS]


def build():
    """The compiled function again: Dynamo's cache on the code serves it (conformance reruns)."""
    return torch.compile(head, backend="eager")


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

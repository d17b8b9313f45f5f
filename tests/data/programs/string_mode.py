"""A string argument compared in the compiled frame (``mode == "secret-token-123"``): each new
``mode`` recompiles it, and a ``print`` on the other branch breaks the graph.  The modes come
from the command line when run as a script (default: the secret one, then another)."""

import sys

import torch

SECRET = "secret-token-123"


def step(x, mode):
    if mode == "secret-token-123":  # COMPARED
        return x * 2
    print("not the secret mode")  # BREAK: print
    return x + 1


def workload(modes=(SECRET, "public")):
    compiled = torch.compile(step, backend="eager")
    return [compiled(torch.ones(4), mode) for mode in modes]


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload(tuple(sys.argv[1:]) or (SECRET, "public"))])

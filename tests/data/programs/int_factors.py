"""int_specialized, recompiled to the limit: each call's int is a new value, and torch
writes every recompile's reasons against each earlier entry (the list grows each time)."""

import torch


def scaled(x, factor):
    return x * factor + 1


def workload():
    compiled = torch.compile(scaled, backend="eager")
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        return [compiled(torch.ones(3), factor) for factor in range(8)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

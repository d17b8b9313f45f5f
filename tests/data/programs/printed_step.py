"""A print inside the compiled function: a graph break, so two graphs and a resume frame."""

import torch


def step(x):
    y = x.sin()
    print("step")  # BREAK: print
    return y * 2


def workload():
    compiled = torch.compile(step, backend="eager")
    return [compiled(torch.ones(n)) for n in (3, 4)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

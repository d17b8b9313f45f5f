"""Global state: one call in full precision, the next under CPU autocast."""

import torch


def project(x, w):
    return (x @ w).relu()


def workload():
    compiled = torch.compile(project, backend="eager")
    w = torch.linspace(-1, 1, 12).reshape(4, 3)
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x, w)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        second = compiled(x, w)  # CALL: autocast
    return [first, second.float()]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

"""Device: shapes are checked on "meta" tensors after a real CPU call; each device compiles."""

import torch


def affine(x, w):
    return x @ w + 1


def workload():
    compiled = torch.compile(affine, backend="eager")
    w = torch.linspace(-1, 1, 12).reshape(4, 3)
    first = compiled(torch.arange(8.0).reshape(2, 4), w)
    second = compiled(torch.empty(2, 4, device="meta"), w.to("meta"))  # CALL: meta
    return [first, torch.zeros(second.shape)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

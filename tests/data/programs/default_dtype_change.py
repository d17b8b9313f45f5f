"""Global state: the default dtype is switched to float64 between two calls."""

import torch


def with_bias(x):
    return x + torch.ones(x.shape[1])


def workload():
    compiled = torch.compile(with_bias, backend="eager")
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x)
    torch.set_default_dtype(torch.float64)
    try:
        second = compiled(x.double())  # CALL: default dtype
    finally:
        torch.set_default_dtype(torch.float32)
    return [first, second]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

"""Global state: deterministic algorithms are turned on for a reproducible second call."""

import torch


def scale(x):
    return x * 2 + 1


def workload():
    compiled = torch.compile(scale, backend="eager")
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x)
    torch.use_deterministic_algorithms(True)
    try:
        second = compiled(x)  # CALL: deterministic
    finally:
        torch.use_deterministic_algorithms(False)
    return [first, second]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

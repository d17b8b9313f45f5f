"""dtype: the same features arrive as float32, then as float64; each dtype compiles once."""

import torch


def normalize(x):
    return (x - x.mean(0)) / (x.std(0) + 1e-5)


def workload():
    compiled = torch.compile(normalize, backend="eager")
    x = torch.arange(24.0).reshape(6, 4)
    first = compiled(x)
    second = compiled(x.double())  # CALL: float64
    return [first, second]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

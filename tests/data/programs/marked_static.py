"""mark_static: the caller pins the batch size of every call, so each size compiles anew."""

import torch


def scale(x):
    return (x * 3).sum(1)


def workload():
    compiled = torch.compile(scale, backend="eager")
    outputs = []
    for n in (2, 3, 4):
        x = torch.arange(n * 4.0).reshape(n, 4)
        torch._dynamo.mark_static(x, 0)  # PINS: batch
        outputs.append(compiled(x))
    return outputs


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

"""A graph break: the frame after it gets an intermediate tensor that no mark reaches."""

import torch


def step(x):
    y = torch.relu(x) + 1
    torch._dynamo.graph_break()
    return (y * y).sum(0)


def workload():
    compiled = torch.compile(step, backend="eager")
    outputs = []
    for n in (4, 8, 16):
        x = torch.arange(n * 2.0).reshape(n, 2)
        torch._dynamo.mark_dynamic(x, 0)
        outputs.append(compiled(x))
    return outputs


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

"""global_int: a module global int read by the compiled function changes between calls."""

import torch

WIDTH = 4


def head(x):
    return x[:, :WIDTH].sum(1) * WIDTH


def workload():
    global WIDTH  # noqa: PLW0603 - the program changes the global between calls
    compiled = torch.compile(head, backend="aot_eager")
    x = torch.arange(32.0).reshape(2, 16)
    outputs = []
    for width in (4, 6, 8, 10):
        WIDTH = width
        outputs.append(compiled(x))
    WIDTH = 4
    return outputs


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

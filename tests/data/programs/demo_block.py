"""The bundled demo's model (``symdebug.examples.demo``), called as the demo calls it."""

import torch

from symdebug.examples.demo import CALLS, WIDTH, TinyBlock, inputs


def build():
    torch.manual_seed(0)
    return torch.compile(TinyBlock(WIDTH), backend="aot_eager")


def workload():
    compiled = build()
    return [compiled(*inputs(*call)) for call in CALLS]


if __name__ == "__main__":
    print([round(t.sum().item(), 3) for t in workload()])

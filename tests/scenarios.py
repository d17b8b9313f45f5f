"""A run with many kinds of specialization, used where a test needs a separate process
(TORCH_TRACE is read at import time).  ``python tests/scenarios.py OUT.json``."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import torch

import symdebug


@dataclass(frozen=True)
class ScenarioRun:
    """One run of this script (the ``scenario_run`` fixture): its live session saved to JSON,
    and its TORCH_TRACE."""

    live: Path
    trace: Path


def branch(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def loop(x, n):
    for _ in range(n):
        x = x + 1
    return x


def pair(a, b):
    return a.sum() + b.sum()


def reduce(x):
    return x.sum(0)


class Scale(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.k = 2

    def forward(self, x):
        return x * self.k


def branch_and_view(x, y):
    if x.shape[0] > 4:  # BRANCH
        x = x * 2
    h = x.view(-1, 2).sum(0)  # VIEW
    return h + y[: x.shape[0] // 2].sum()


def capture_branch_and_view() -> tuple[symdebug.Session, object]:
    """Inductor at x of 8, then 4: a branch guard, a view guard, kernels and a recompile."""
    torch._dynamo.reset()
    with symdebug.capture() as session:
        compiled = torch.compile(branch_and_view, backend="inductor", dynamic=True)
        compiled(torch.randn(8), torch.randn(10))
        compiled(torch.randn(4), torch.randn(10))
    return session, compiled


def run() -> symdebug.Session:
    """Call each function at sizes that make it recompile, under capture."""
    with symdebug.capture() as session:
        cb = torch.compile(branch, backend="eager", dynamic=True)
        for rows in (8, 3, 1):
            cb(torch.randn(rows, 3))
        cl = torch.compile(loop, backend="eager")
        for n in (2, 3, 4):
            cl(torch.randn(3), n)
        cp = torch.compile(pair, backend="aot_eager", dynamic=True)
        cp(torch.randn(4), torch.randn(4))
        cp(torch.randn(4), torch.randn(5))
        module = Scale()
        cm = torch.compile(module, backend="eager")
        cm(torch.randn(3))
        module.k = 3
        cm(torch.randn(5))
        cr = torch.compile(reduce, backend="inductor", dynamic=True)
        cr(torch.randn(100, 3))
        cr(torch.randn(5000, 3))
    return session


if __name__ == "__main__":
    run().save(sys.argv[1])

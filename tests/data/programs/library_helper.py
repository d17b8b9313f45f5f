"""A graph break inside a library: the user's ``normalize`` calls ``tinylib.logged_scale``
(a package under a ``site-packages`` folder), which prints a tensor.  Torch names the
library's ``print`` line; the user's line is the call in ``normalize``, inlined into the
compiled ``forward``, whose resume frame starts after the call to ``normalize``."""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent / "site-packages"))

import tinylib  # found on the site-packages folder added above


def normalize(x):
    return tinylib.logged_scale(x, 0.5) + 1  # USER: helper


def forward(x):
    y = x.relu()
    return normalize(y).sum(-1)  # RESUME: forward


def workload():
    compiled = torch.compile(forward, backend="eager")
    return [compiled(torch.ones(3, 4)), compiled(torch.ones(5, 4))]


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])

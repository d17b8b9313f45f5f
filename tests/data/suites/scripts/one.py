"""A workload given as a script (``"scripts/one.py"`` in ``small_suite.py``): it compiles and
calls at its top level, as a user's script does, and recompiles once (the size changes)."""

import torch


def double(x):
    return x * 2


compiled = torch.compile(double, backend="eager")
for rows in (2, 3, 4):
    compiled(torch.ones(rows))

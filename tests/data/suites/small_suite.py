"""A small workload file for the tests of ``symdebug suite``: quick, deterministic, eager.

Each workload recompiles for its own reason, so a test can check the suite's row for it:

``int_loop``      an int used as a loop count: one compile per value (``int_specialized``).
``size_branch``   a branch on a size (``user_branch``) after the size became dynamic.
``print_break``   a ``print`` inside the compiled function: a graph break and a resume frame.
``script``        a script given by its path, relative to this file: ``scripts/one.py``.
``raises``        compiles once, then raises ``ValueError``: the suite reports the error and
                  carries on with the next workload.

Every workload returns nothing and takes about 2 s in a fresh process (most of it the first
compile's set-up), plus the process's start (about 2 s: importing torch).
"""

import torch


def _loop(x, n):
    for _ in range(n):
        x = x * 2
    return x


def int_loop():
    compiled = torch.compile(_loop, backend="eager")
    for n in (1, 2, 3):
        compiled(torch.ones(3), n)


def _branch(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def size_branch():
    compiled = torch.compile(_branch, backend="eager")
    # 6 then 8 makes the size dynamic (with a guard ``size > 4``); 3 fails that guard.
    for rows in (6, 8, 3):
        compiled(torch.ones(rows, 2))


def _noisy(x):
    y = x + 1
    print("a graph break")  # Dynamo cannot trace print: the frame breaks here
    return y * 2


def print_break():
    compiled = torch.compile(_noisy, backend="eager")
    for rows in (2, 3):
        compiled(torch.ones(rows))


def raises():
    compiled = torch.compile(_loop, backend="eager")
    compiled(torch.ones(2), 1)
    raise ValueError("small_suite.raises: this workload fails on purpose")


WORKLOADS = {
    "int_loop": int_loop,
    "size_branch": size_branch,
    "print_break": print_break,
    "script": "scripts/one.py",
    "raises": raises,
}

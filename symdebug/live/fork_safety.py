"""Whether a forked replay would work in this process: proven by forking once, or not.

A fork copies the process, not its threads: a child of a parent that used CUDA cannot use
CUDA, and on torch's CUDA builds a child of a parent whose autograd engine started its
device threads cannot run a backward ("Unable to handle autograd's threading in
combination with fork-based multiprocessing", https://github.com/pytorch/pytorch/wiki/Autograd-and-Fork).
The probe forks a child that runs a small backward; only its success proves a fork safe.
"""

from __future__ import annotations

import torch

from symdebug.live.isolated import can_fork, run_isolated

#: Seconds the probe may take (a child blocked on a lock the parent's threads held).
PROBE_TIMEOUT_S = 20.0


def _small_backward() -> bool:
    leaf = torch.ones(2, requires_grad=True)
    (leaf * 2).sum().backward()  # type: ignore[no-untyped-call]
    return bool(leaf.grad is not None)


def fork_unsafe_reason() -> str:
    """Why a forked replay would not work here; ``""`` when a probe fork proved it works."""
    if not can_fork():
        return "this platform cannot fork"
    if torch.cuda.is_initialized():  # type: ignore[no-untyped-call]
        return "this process has used CUDA, which a forked process cannot use"
    outcome = run_isolated(_small_backward, PROBE_TIMEOUT_S)
    if outcome.value is not True:
        return f"a forked process could not run a backward here ({outcome.error})"
    return ""

"""A workload file whose middle workload kills its process (``os._exit(3)``): no exception,
no clean-up, no capture saved.  The suite reports it as crashed with exit code 3 and still
reports the workloads before and after it."""

import os

import torch


def _double(x):
    return x * 2


def before():
    compiled = torch.compile(_double, backend="eager")
    for rows in (2, 3):
        compiled(torch.ones(rows))


def crashes():
    compiled = torch.compile(_double, backend="eager")
    compiled(torch.ones(2))  # compile first, so the crash loses a capture with content
    os._exit(3)


def after():
    compiled = torch.compile(_double, backend="eager")
    for rows in (4, 5):
        compiled(torch.ones(rows))


WORKLOADS = {"before": before, "crashes": crashes, "after": after}

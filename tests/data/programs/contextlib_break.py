"""Graph breaks around ``contextlib``: a callback registered on an ``ExitStack`` prints, so
Dynamo breaks inside contextlib's ``_exit_wrapper`` (torch skips the frame: it cannot break
inside the active context manager); a ``@contextmanager`` of the user's own whose body
prints breaks at the user's line, with no library line."""

import contextlib

import torch


def with_exit_stack(x):
    with contextlib.ExitStack() as stack:  # USER: exit stack
        stack.callback(print, "leaving")
        y = x + 1
    return y * 2


@contextlib.contextmanager
def announced():
    print("entering")  # USER: own manager
    yield


def with_own_manager(x):
    with announced():
        y = x + 1
    return y * 2


def workload():
    x = torch.ones(4)
    first = torch.compile(with_exit_stack, backend="eager")(x)
    return [first, torch.compile(with_own_manager, backend="eager")(x)]


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])

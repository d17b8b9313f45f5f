"""A program that keeps ``x`` static wherever its torch can (``static_sources``, torch 2.15).

Torch 2.15's ``torch.compiler.config.static_sources`` (also ``TORCH_COMPILE_STATIC_SOURCES``)
keeps every size of ``x`` a constant: each new batch compiles anew.  Torch 2.13 and 2.14 have
no such setting, so the program leaves it out there and the batch turns dynamic at its first
change.  The same program, upgraded, adds recompiles (``symdebug diff`` of its two logs says
which, and why).
"""

import torch


def total(x):
    return (x * 2).sum(0)


def settings():
    """``static_sources`` where this torch has it (2.15 on), else nothing."""
    return {"static_sources": "L['x']"} if hasattr(torch.compiler.config, "static_sources") else {}


def workload():
    compiled = torch.compile(total, backend="eager")
    with torch.compiler.config.patch(settings()):
        return [compiled(torch.ones(n, 3)) for n in (4, 8, 16, 32)]  # BATCHES


if __name__ == "__main__":
    print([t.tolist() for t in workload()])

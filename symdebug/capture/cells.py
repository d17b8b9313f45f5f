"""Name notebook cells as people see them: ``Cell [3]``, not the kernel's temporary file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def cell_aliases() -> dict[str, str]:
    """The kernel's file name of each cell run so far -> ``Cell [N]`` (empty outside IPython)."""
    if "IPython" not in sys.modules:  # never import IPython just to find out
        return {}
    from IPython import get_ipython

    shell = get_ipython()
    names = getattr(getattr(shell, "compile", None), "_filename_map", None) or {}
    return {filename: f"Cell [{number}]" for filename, number in names.items()}


def running_cell_number(shell: Any) -> int | None:
    """The number of the cell whose code is running now (None when no cell's code is).

    Read from the call stack: the innermost frame in a file the shell compiled for a cell.
    IPython 9 counts the next cell as soon as one starts, so the shell's counter is one ahead.
    """
    names = getattr(getattr(shell, "compile", None), "_filename_map", None) or {}
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename in names:
            return int(names[frame.f_code.co_filename])
        frame = frame.f_back  # type: ignore[assignment]
    return None


@contextmanager
def numbered_as(shell: Any, number: int | None) -> Iterator[None]:
    """Run code the shell compiles meanwhile (``run_cell``) under cell number ``number``.

    A cell magic runs its body as a cell of its own; numbered like the cell that holds it,
    its frames read ``Cell [N]`` of the cell the user sees.
    """
    if number is None:
        yield
        return
    counter = shell.execution_count
    shell.execution_count = number
    try:
        yield
    finally:
        shell.execution_count = counter

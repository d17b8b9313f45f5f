"""Name notebook cells as people see them: ``Cell [3]``, not the kernel's temporary file."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def cell_aliases() -> dict[str, str]:
    """The kernel's file name of each cell run so far -> ``Cell [N]`` (empty outside IPython)."""
    if "IPython" not in sys.modules:  # never import IPython just to find out
        return {}
    from IPython import get_ipython  # noqa: PLC0415 - IPython is optional (see above)

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


def leading_blank_lines(text: str) -> int:
    """How many whitespace-only lines open ``text``: IPython drops them before it compiles."""
    lines = text.splitlines()
    return next((i for i, line in enumerate(lines) if line.strip()), 0)


def below_magic_line(body: str) -> Callable[[list[str]], list[str]]:
    """An IPython post-transform that numbers a cell magic's body as the editor does.

    The body starts on the editor's line 2 (under ``%%symdebug``), and IPython drops its
    leading blank lines: blank lines put back in their place make each compiled line number,
    and the source kept for it, the line the editor shows.
    """
    blank = ["\n"] * (1 + leading_blank_lines(body))

    def transform(lines: list[str]) -> list[str]:
        return [*blank, *lines]

    return transform


@contextmanager
def editor_line_numbers(shell: Any, body: str) -> Iterator[None]:
    """Compile cells meanwhile (``run_cell`` of a magic's body) with the editor's numbers."""
    transform = below_magic_line(body)
    shell.input_transformers_post.append(transform)
    try:
        yield
    finally:
        shell.input_transformers_post.remove(transform)

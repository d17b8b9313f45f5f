"""What a path is when it is no regular file: read by no layer in particular, used by all.

Opening a FIFO waits for a writer and a device such as ``/dev/zero`` never ends, so every
file symdebug is given (a log, a saved session, a folder's entry) is looked at first.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

#: What a file that is no regular file is, by its ``stat`` mode.
_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def irregular_kind(mode: int) -> str | None:
    """What a ``stat`` mode says the file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((said for test, said in _KINDS if test(mode)), "no regular file")


def check_regular(path: str | os.PathLike[str], what: str) -> None:
    """Raise unless ``path`` is a regular file (a link to one is), ``what`` saying the file.

    Raises
    ------
    FileNotFoundError
        If nothing is at ``path``.
    IsADirectoryError
        If ``path`` is a directory.
    ValueError
        If ``path`` is a FIFO, a device or a socket: reading one could block or never end.
    """
    try:
        mode = Path(path).stat().st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"{what} not found: {path}") from None
    kind = irregular_kind(mode)
    if kind == "a directory":
        raise IsADirectoryError(f"expected a {what} file, got a directory: {path}")
    if kind:
        raise ValueError(f"expected a {what} file, got {kind}: {path}")

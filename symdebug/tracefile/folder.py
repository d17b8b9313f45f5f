"""The logs of a folder of rank logs: regular files inside it, nothing else ever opened.

A folder is often shared, or holds what a job left behind: a link to a key file outside it
would put that file's lines into the report, and opening a FIFO waits forever.  Each log
(``*.log``, ``*.log.gz``) is checked without opening it; the refused ones get a note.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path

from symdebug.file_kinds import irregular_kind

_RANK_IN_NAME = re.compile(r"rank_(\d+)")
_LOG_NAMES = (".log", ".log.gz")


def log_order(file: Path) -> tuple[int, int, str]:
    """Rank logs (``..._rank_N...``) first, in rank order, then the others by name."""
    match = _RANK_IN_NAME.search(file.name)
    return (0, int(match.group(1)), file.name) if match else (1, 0, file.name)


def _refusal(entry: Path, inside: Path) -> str | None:
    """Why ``entry`` is not read (None: it is a regular file of the folder).

    The target of a link is looked at, never opened; its path is not said (it may be secret).
    """
    try:
        target = entry.resolve(strict=True)
        mode = target.stat().st_mode
    except (OSError, RuntimeError) as error:  # RuntimeError: a link loop (Python < 3.13)
        said = error.strerror if isinstance(error, OSError) and error.errno != errno.ELOOP else None
        return f"cannot be looked at ({said or 'a link loop'})"
    if not target.is_relative_to(inside):
        return "links outside the folder"
    kind = irregular_kind(mode)
    return f"is {kind}" if kind else None


def folder_logs(root: Path) -> tuple[list[Path], list[str]]:
    """The non-empty logs of the folder ``root`` in :func:`log_order`, and a note per refusal.

    Raises
    ------
    ValueError
        If the folder holds no log that can be read (the notes say why).
    """
    inside = root.resolve()
    files: list[Path] = []
    notes: list[str] = []
    for entry in sorted(root.iterdir()):
        if not entry.name.endswith(_LOG_NAMES):
            continue  # stray files (a job's other output) are no logs
        why = _refusal(entry, inside)
        if why is not None:
            notes.append(f"{entry.name} {why}: not read")
        elif entry.stat().st_size > 0:
            files.append(entry)
    if not files:
        raise ValueError("; ".join([f"no TORCH_TRACE logs in {root}", *notes]))
    return sorted(files, key=log_order), notes

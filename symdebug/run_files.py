"""What a run's file holds: a saved session or a TORCH_TRACE log, told by its contents.

A saved session is one JSON object; it is recognised however it starts (a UTF-8 byte order
mark, any amount of whitespace) and inside a gzip file too.  Anything else is read as a
log, and a file holding no record at all is refused: a CI gate must never read a file that
is not a run (random bytes, a text file, zeros) as a run with no compiles.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import IO, Literal, cast

GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
#: Byte order marks of encodings torch never writes (``UTF-16`` from an editor or PowerShell).
_OTHER_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
_CHUNK = 1 << 16
RunKind = Literal["session", "log", "empty"]


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """The file's bytes, decompressed when it is gzip (as logs and sessions are shared)."""
    with Path(path).open("rb") as raw:
        compressed = raw.read(2) == GZIP_MAGIC
    if compressed:
        return cast("IO[bytes]", gzip.open(path, "rb"))
    return Path(path).open("rb")


def run_kind(path: str | os.PathLike[str]) -> RunKind:
    """``session`` when the first character that is no blank is ``{``; ``empty``; ``log``.

    Raises
    ------
    ValueError
        For text in UTF-16 or UTF-32, which no TORCH_TRACE log or saved session is.
    OSError
        For a file that cannot be read, or a damaged gzip file.
    """
    with open_binary(path) as file:
        start = file.read(4)
        encoding = next((name for bom, name in _OTHER_BOMS if start.startswith(bom)), None)
        if encoding is not None:
            raise ValueError(
                f"{path}: {encoding} text; TORCH_TRACE logs and saved sessions are UTF-8 "
                "(save it again as UTF-8)"
            )
        chunk = start.removeprefix(_UTF8_BOM) if len(start) >= 3 else start
        while not chunk.strip():
            chunk = file.read(_CHUNK)
            if not chunk:
                return "empty"
    return "session" if chunk.lstrip()[:1] == b"{" else "log"

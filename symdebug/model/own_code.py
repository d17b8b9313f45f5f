"""The user's own code, as opposed to torch and the libraries a program imports.

A guard's stack from a Hugging Face model lies entirely in ``transformers``: the line the
user can change is where their own code called the compiled model.  A file is the user's
own when it lies neither in torch, nor under ``site-packages``/``dist-packages``, nor in the
standard library; a library is named by its top-level package (or module) there.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from symdebug.model.frames import is_torch_file
from symdebug.model.library_paths import stdlib_module
from symdebug.model.types import Frame
from symdebug.model.values import posix_path

_PACKAGE_ROOTS = ("/site-packages/", "/dist-packages/")


@lru_cache(maxsize=8192)
def library_of(filename: str) -> str | None:
    """``transformers`` for ``.../site-packages/transformers/x.py``; ``torch``; None if own."""
    path = posix_path(filename)
    for root in _PACKAGE_ROOTS:
        if root in path:
            package = path.split(root, 1)[1].split("/", 1)[0]
            return package.removesuffix(".py") or None
    if is_torch_file(path):
        return "torch"
    stdlib = stdlib_module(path)  # contextlib, runpy: no more the user's than a package
    if stdlib is not None:
        return stdlib
    return _short_library(path) if not Path(path).is_absolute() else None


def _short_library(path: str) -> str | None:
    """The package of a path torch shortened (``transformers/cache_utils.py``).

    ``nn/modules/linear.py`` is torch's own.  None when no installed package has the file.
    """
    if Path(path).is_file():
        return None
    for entry in sys.path:
        if not any(root.strip("/") in posix_path(entry) for root in _PACKAGE_ROOTS):
            continue
        if (Path(entry) / path).is_file():
            return path.split("/", 1)[0].removesuffix(".py")
        if (Path(entry) / "torch" / path).is_file():
            return "torch"
    return None


def is_own_code(frame: Frame) -> bool:
    """Whether a frame lies in the user's own code (a named file in no library)."""
    return bool(frame.filename) and library_of(frame.filename) is None


def own_frame(stack: Sequence[Frame], caller: Frame | None = None) -> Frame | None:
    """The deepest frame of ``stack`` in the user's own code, else the caller's call site."""
    return next((f for f in reversed(stack) if is_own_code(f)), caller)


def call_site(stack: Sequence[Frame]) -> Frame | None:
    """Where the user's own code called the compiled frame (the last frame is that frame)."""
    return next((f for f in reversed(stack[:-1]) if is_own_code(f)), None)


def user_line(
    traced: Frame | None, stack: Sequence[Frame], caller: Frame | None
) -> tuple[Frame | None, Frame | None]:
    """``(user line, library line)`` of a traced line (a guard's ``user_frame``).

    The user line is the deepest frame of the user's own code in ``stack`` (the call site
    ``caller`` when every traced frame lies in a library); the library line is ``traced``,
    kept as context, when it lies in a library (else None).
    """
    if traced is None or is_own_code(traced):
        return traced, None
    own = own_frame(stack, caller)
    return (own, traced) if own is not None else (traced, None)

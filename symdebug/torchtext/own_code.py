"""The user's own code, as opposed to torch and the libraries a program imports.

A guard's stack from a Hugging Face model lies entirely in ``transformers``: the line the
user can change is where their own code called the compiled model.  A file is the user's
own when it lies neither in torch, nor under ``site-packages``/``dist-packages``, nor in the
standard library; a library is named by its top-level package (or module) there.  A full
path's shape decides, never the files at it; only a path torch shortened past recognition
(``transformers/x.py``) is looked up among the packages installed here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from symdebug.model.library_paths import stdlib_module
from symdebug.model.types import Frame
from symdebug.model.values import posix_path
from symdebug.torchtext.frames import is_torch_file

_PACKAGE_ROOTS = ("/site-packages/", "/dist-packages/")
#: Torch's own top-level folders and modules, as a shortened path starts (``nn/...``); no
#: generic name a user's project might use too (``utils``).
_TORCH_FOLDERS = frozenset(
    {
        "_dynamo",
        "_inductor",
        "_functorch",
        "_subclasses",
        "_refs",
        "_prims",
        "_prims_common",
        "_decomp",
        "_export",
        "_higher_order_ops",
        "_library",
        "_logging",
        "_guards.py",
        "_ops.py",
        "_tensor.py",
        "_meta_registrations.py",
        "nn",
        "fx",
        "autograd",
        "distributed",
        "optim",
        "amp",
        "export",
        "compiler",
        "functional.py",
        "overrides.py",
    }
)


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
    """The package of a path torch shortened (``transformers/cache_utils.py``), else None.

    Torch shortens a path by its common prefix with torch's folder, and a log's reader
    resolves what the log names in full (:meth:`FrameReader.full_path`).  What is left is
    torch's when it starts in one of torch's own folders; else a package's when one installed
    here has the file (torch's shortening loses where it was: ``src/model.py`` may be a
    project's).  Never resolved against the working folder; a name too long to look up is no
    package's.
    """
    if path.split("/", 1)[0] in _TORCH_FOLDERS:
        return "torch"
    return _installed_package(path)


def _installed_package(path: str) -> str | None:
    for entry in sys.path:
        if not any(root.strip("/") in posix_path(entry) for root in _PACKAGE_ROOTS):
            continue
        try:
            if (Path(entry) / path).is_file():
                return path.split("/", 1)[0].removesuffix(".py")
        except (OSError, ValueError):  # too long for this filesystem, or holding a NUL
            return None
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

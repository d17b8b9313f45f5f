"""Library files said the short way, and the standard library recognised as a library.

Torch logs absolute paths (``/venv/lib/python3.11/site-packages/torch/optim/optimizer.py``);
a view names a library's file by its path inside the library root, as an import would
(``torch/optim/optimizer.py``).  The standard library (``/usr/lib/python3.11/contextlib.py``,
``<frozen runpy>``) is no code of the user's either: a break inside ``contextlib`` is a
library's line, never the user's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from symdebug.model.values import posix_path

_PACKAGE_ROOTS = ("/site-packages/", "/dist-packages/")
#: The standard library's root: ``lib/python3.11/`` (POSIX) or ``Lib/`` (Windows).
_STDLIB_ROOT = re.compile(r"/lib/python\d+(?:\.\d+)?t?/|/Lib/")
_FROZEN = re.compile(r"^<frozen (?P<module>[\w.]+)>$")


def _after_root(path: str) -> str | None:
    """The path inside a package root (site-packages), else inside the standard library."""
    for root in _PACKAGE_ROOTS:
        if root in path:
            return path.split(root, 1)[1]
    match = _STDLIB_ROOT.search(path)
    return path[match.end() :] if match else None


@lru_cache(maxsize=4096)
def stdlib_module(filename: str) -> str | None:
    """``contextlib`` for ``/usr/lib/python3.11/contextlib.py`` or ``<frozen contextlib>``.

    None for a file outside the standard library (one under its ``site-packages`` too).
    """
    path = posix_path(filename)
    frozen = _FROZEN.match(path)
    if frozen is not None:
        return frozen["module"].split(".", 1)[0]
    if any(root in path for root in _PACKAGE_ROOTS):
        return None
    inside = _after_root(path)
    if not inside:
        return None
    return inside.split("/", 1)[0].removesuffix(".py") or None


@lru_cache(maxsize=4096)
def library_path(filename: str) -> str:
    """``torch/optim/optimizer.py`` for a library file torch logged by its absolute path.

    A path torch already shortened, or one under no known root, is returned as it is.
    """
    path = posix_path(filename)
    inside = _after_root(path)
    if inside:
        return inside
    if "/torch/" in path:  # torch built from a source checkout: no site-packages
        return "torch/" + path.rsplit("/torch/", 1)[1]
    return path

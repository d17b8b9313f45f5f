"""symdebug: find out why torch.compile specialized a shape, and what to do about it.

>>> import symdebug                                   # doctest: +SKIP
>>> with symdebug.capture() as s:                     # doctest: +SKIP
...     compiled(x); compiled(y)
>>> print(s.why("x", 0))                              # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from symdebug.capture import capture, start, stop
from symdebug.loading import MultiRankSession, load, load_trace
from symdebug.queries.why import Explanation
from symdebug.session import Session

__version__ = "0.1.0"
__all__ = [
    "Explanation",
    "MultiRankSession",
    "Session",
    "capture",
    "load",
    "load_trace",
    "start",
    "stop",
]


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext symdebug``: register the magics and capture the following cells."""
    from symdebug.notebook import load_extension

    load_extension(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext symdebug``: stop capturing."""
    from symdebug.notebook import unload_extension

    unload_extension(ipython)


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where the prebuilt JupyterLab extension lies (``jupyter labextension develop``)."""
    return [{"src": "labextension", "dest": "symdebug"}]

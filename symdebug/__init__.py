"""symdebug: find out why torch.compile specialized a shape, and what to do about it.

>>> import symdebug                                   # doctest: +SKIP
>>> with symdebug.capture() as s:                     # doctest: +SKIP
...     compiled(x); compiled(y)
>>> print(s.why("x", 0))                              # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from symdebug._version import __version__
from symdebug.api import Session
from symdebug.loading import MultiRankSession, load, load_trace
from symdebug.queries.why import Explanation

if TYPE_CHECKING:
    from symdebug.live import LiveCapture, LiveSession
    from symdebug.live.fix_plan import fix_plan

#: What ``import symdebug`` does not load, each name by its module, imported on first use:
#: live capture needs torch, the explorer and the magics IPython, a diff of runs its pages'
#: renderers.  Reading logs and saved sessions needs none of them.
_ELSEWHERE = {
    "LiveCapture": "symdebug.live",
    "LiveSession": "symdebug.live",
    "fix_plan": "symdebug.live.fix_plan",  # the one fix_plan: LiveSession.fix_plan calls it
    "capture": "symdebug.live",
    "start": "symdebug.live",
    "stop": "symdebug.live",
    "diff": "symdebug.runs.diff",
    "Explorer": "symdebug.notebook.widget",
    "load_extension": "symdebug.notebook",
    "unload_extension": "symdebug.notebook",
}
#: The names of :data:`_ELSEWHERE` that are this package's attributes as they are; the
#: others are called by a function of this module (its signature and docstring are here).
_ATTRIBUTES = ("LiveCapture", "LiveSession", "fix_plan")


def _elsewhere(name: str) -> Any:
    """``name`` from its module in :data:`_ELSEWHERE`, which is imported now if not yet."""
    # lazy: torch, IPython and the pages' renderers load when first asked for (_ELSEWHERE)
    return getattr(importlib.import_module(_ELSEWHERE[name]), name)


def __getattr__(name: str) -> Any:
    if name in _ATTRIBUTES:
        return _elsewhere(name)
    raise AttributeError(f"module 'symdebug' has no attribute {name!r}")


def capture(
    *, disable_caches: bool = True, max_compiles: int = 5000, kernel_provenance: bool = True
) -> AbstractContextManager[LiveSession]:
    """Capture every shape guard of the compiles that run inside the block.

    ``with symdebug.capture() as s:`` yields a :class:`LiveSession`, filled as compiles
    happen.  ``disable_caches`` turns torch's compile caches off while capturing (default):
    a cache hit replays guards without their provenance (``False``: such guards are marked
    "from cache"), but a warm compile then runs cold.  ``max_compiles`` bounds memory in
    a long notebook: beyond it the oldest compiles are dropped, counted and said.
    ``kernel_provenance=False`` skips Inductor's kernel -> FX node records.  See
    :func:`symdebug.live.capture`.
    """
    capturing: AbstractContextManager[LiveSession] = _elsewhere("capture")(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )
    return capturing


def start(
    *, disable_caches: bool = True, max_compiles: int = 5000, kernel_provenance: bool = True
) -> LiveSession:
    """Start capturing until :func:`stop`; return the session being filled."""
    session: LiveSession = _elsewhere("start")(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )
    return session


def stop() -> LiveSession:
    """Stop the most recent :func:`start` and return its session."""
    session: LiveSession = _elsewhere("stop")()
    return session


__all__ = [
    "Explanation",
    "LiveCapture",
    "LiveSession",
    "MultiRankSession",
    "Session",
    "__version__",
    "capture",
    "diff",
    "explorer",
    "fix_plan",
    "load",
    "load_trace",
    "start",
    "stop",
]


def diff(before: Any, after: Any) -> Any:
    """What changed between two runs: compiles, recompiles, specializations, graph breaks.

    Each side is a ``TORCH_TRACE`` log or folder, a saved session (``.symdebug.json``), a
    folder of rank logs, or a session.  Returns a
    :class:`~symdebug.runs.diff.SessionDiff` (``regressed``, frames matched by qualified
    name and file); see :func:`symdebug.runs.diff.diff`.
    """
    return _elsewhere("diff")(before, after)


def explorer(session: Session, compiled: Any = None, workload: Any = None) -> Any:
    """The notebook explorer widget of a session.

    ``compiled`` (the compiled function) enables Run; ``workload`` (a no-argument callable
    that makes the calls again) enables Verify fixes.
    """
    return _elsewhere("Explorer")(session, compiled, workload)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext symdebug``: register the magics and capture the following cells."""
    _elsewhere("load_extension")(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext symdebug``: stop capturing."""
    _elsewhere("unload_extension")(ipython)


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where the prebuilt JupyterLab extension lies (``jupyter labextension develop``)."""
    return [{"src": "labextension", "dest": "symdebug"}]

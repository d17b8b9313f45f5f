"""symdebug: find out why torch.compile specialized a shape, and what to do about it.

>>> import symdebug                                   # doctest: +SKIP
>>> with symdebug.capture() as s:                     # doctest: +SKIP
...     compiled(x); compiled(y)
>>> print(s.why("x", 0))                              # doctest: +SKIP
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from symdebug._version import __version__
from symdebug.api import Session
from symdebug.loading import MultiRankSession, load, load_trace
from symdebug.queries.why import Explanation

if TYPE_CHECKING:
    from symdebug.live import LiveCapture, LiveSession

#: Live capture needs torch, reading logs and saved sessions does not: :mod:`symdebug.live`
#: is imported on first use, never by ``import symdebug``.
_LIVE_CLASSES = ("LiveCapture", "LiveSession")


def __getattr__(name: str) -> Any:
    if name in _LIVE_CLASSES:
        from symdebug import live

        return getattr(live, name)
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
    from symdebug import live

    return live.capture(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )


def start(
    *, disable_caches: bool = True, max_compiles: int = 5000, kernel_provenance: bool = True
) -> LiveSession:
    """Start capturing until :func:`stop`; return the session being filled."""
    from symdebug import live

    return live.start(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )


def stop() -> LiveSession:
    """Stop the most recent :func:`start` and return its session."""
    from symdebug import live

    return live.stop()


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
    from symdebug.runs.diff import diff as diff_runs

    return diff_runs(before, after)


def explorer(session: Session, compiled: Any = None, workload: Any = None) -> Any:
    """The notebook explorer widget of a session.

    ``compiled`` (the compiled function) enables Run; ``workload`` (a no-argument callable
    that makes the calls again) enables Verify fixes.
    """
    from symdebug.notebook.widget import Explorer

    return Explorer(session, compiled, workload)


def fix_plan(workload: Any, session: Session | None = None, **options: Any) -> Any:
    """Replay ``workload`` under candidate settings; return the verified :class:`FixPlan`.

    Any session (a live one or one loaded from a log) lends its suggested fixes as
    candidates and gets their ``verified`` set.  See :meth:`LiveSession.fix_plan`.
    """
    from symdebug.live import LiveSession
    from symdebug.live.verify import fix_plan as plan_fixes

    if isinstance(session, LiveSession):
        return session.fix_plan(workload, **options)
    return plan_fixes(workload, facts=session.facts if session is not None else None, **options)


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

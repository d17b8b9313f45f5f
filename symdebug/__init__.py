"""symdebug: find out why torch.compile specialized a shape, and what to do about it.

>>> import symdebug                                   # doctest: +SKIP
>>> with symdebug.capture() as s:                     # doctest: +SKIP
...     compiled(x); compiled(y)
>>> print(s.why("x", 0))                              # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from symdebug._version import __version__
from symdebug.api import Session
from symdebug.live import LiveCapture, LiveSession, capture, start, stop
from symdebug.loading import MultiRankSession, load, load_trace
from symdebug.queries.why import Explanation

__all__ = [
    "Explanation",
    "LiveCapture",
    "LiveSession",
    "MultiRankSession",
    "Session",
    "__version__",
    "capture",
    "explorer",
    "fix_plan",
    "load",
    "load_trace",
    "start",
    "stop",
]


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

"""``symdebug.capture()``, ``start()`` and ``stop()``: a :class:`LiveCapture` for users."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from symdebug.live.live_capture import LiveCapture
from symdebug.live.session import LiveSession

#: The captures :func:`start` began, the most recent last (:func:`stop` ends it).
_active: list[LiveCapture] = []


@contextmanager
def capture(
    *, disable_caches: bool = True, max_compiles: int = 5000, kernel_provenance: bool = True
) -> Iterator[LiveSession]:
    """Capture every shape guard of the compiles that run inside the block.

    Parameters
    ----------
    disable_caches
        Turn torch's compile caches off while capturing (default), so that every compile is
        traced afresh and each guard keeps its line.  The cost: a compile that would have
        been warm runs cold (a warm Inductor compile took about 5x its CPU time under
        capture; ``benchmarks/bench_warm_capture.py``).  With ``False`` a cache hit replays its
        guards without their provenance: they are marked ``origin="cache"`` and every view
        says "from cache: no user line".
    max_compiles
        Compiles kept (default 5,000): beyond it the oldest are dropped to bound memory in a
        long notebook; the summary says how many.
    kernel_provenance
        Have Inductor record which FX nodes each kernel computes (default): what links a
        guard to its kernel on a CPU.  Inductor's "basic" level: the mapping without every
        FX node's stack, so a compile pays no more than for ``TORCH_TRACE`` to a file.

    Yields
    ------
    LiveSession
        Filled as compiles happen; complete when the block exits.

    Examples
    --------
    >>> with symdebug.capture() as s:          # doctest: +SKIP
    ...     torch.compile(f)(torch.randn(8, 4))
    >>> s.why("x", 0)                           # doctest: +SKIP
    """
    active = LiveCapture(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )
    session = active.start()
    try:
        yield session
    finally:
        active.stop()


def start(
    *, disable_caches: bool = True, max_compiles: int = 5000, kernel_provenance: bool = True
) -> LiveSession:
    """Start capturing until :func:`stop`; return the session being filled."""
    active = LiveCapture(
        disable_caches=disable_caches,
        max_compiles=max_compiles,
        kernel_provenance=kernel_provenance,
    )
    _active.append(active)
    return active.start()


def stop() -> LiveSession:
    """Stop the most recent :func:`start` and return its session."""
    if not _active:
        raise RuntimeError("symdebug.stop() called without a matching symdebug.start()")
    return _active.pop().stop()

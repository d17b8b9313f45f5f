"""Live capture: ``symdebug.capture()`` and ``start()``/``stop()``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from symdebug._torch.settings import compile_caches_disabled, inductor_provenance_enabled
from symdebug._torch.trace_logger import interned_strings, trace_logger
from symdebug.capture.cells import cell_aliases
from symdebug.capture.handler import CaptureHandler
from symdebug.session import Session

__all__ = ["Capture", "attached", "capture", "start", "stop"]


class Capture:
    """One active capture: its handler on torch's trace logger and the settings it changed."""

    def __init__(self, *, disable_caches: bool = True) -> None:
        self.handler = CaptureHandler()
        self.handler.alias_provider = cell_aliases  # frames in notebook cells read "Cell [N]"
        self.session = Session.live(self.handler)
        self._disable_caches = disable_caches
        self._stack: ExitStack | None = None

    def start(self) -> Session:
        """Attach the handler and turn compile caches off; return the session it fills."""
        if self._stack is not None:
            raise RuntimeError("this capture is already running")
        stack = ExitStack()
        if self._disable_caches:
            stack.enter_context(compile_caches_disabled())
        stack.enter_context(inductor_provenance_enabled())
        logger = trace_logger()
        logger.addHandler(self.handler)
        stack.callback(logger.removeHandler, self.handler)
        self._stack = stack
        return self.session

    def stop(self) -> Session:
        """Detach the handler and restore every setting; the session keeps what it saw."""
        if self._stack is not None:
            self._stack.close()
            self._stack = None
        # The model is built lazily, on first access: stopping costs the compile nothing.
        self.handler.stream.strings.update(interned_strings())
        return self.session


_active: list[Capture] = []


@contextmanager
def capture(*, disable_caches: bool = True) -> Iterator[Session]:
    """Capture every shape guard of the compiles that run inside the block.

    Parameters
    ----------
    disable_caches
        Turn torch's compile caches off while capturing (default).  A cache hit replays
        guards without their provenance.

    Yields
    ------
    Session
        Filled as compiles happen; complete when the block exits.

    Examples
    --------
    >>> with symdebug.capture() as s:          # doctest: +SKIP
    ...     torch.compile(f)(torch.randn(8, 4))
    >>> s.why("x", 0)                           # doctest: +SKIP
    """
    active = Capture(disable_caches=disable_caches)
    session = active.start()
    try:
        yield session
    finally:
        active.stop()


def start(*, disable_caches: bool = True) -> Session:
    """Start capturing until :func:`stop`; return the session being filled."""
    active = Capture(disable_caches=disable_caches)
    _active.append(active)
    return active.start()


def stop() -> Session:
    """Stop the most recent :func:`start` and return its session."""
    if not _active:
        raise RuntimeError("symdebug.stop() called without a matching symdebug.start()")
    return _active.pop().stop()


@contextmanager
def attached(handler: CaptureHandler) -> Iterator[None]:
    """Record into an existing capture's handler for the block (a no-op while it runs)."""
    logger = trace_logger()
    if handler in logger.handlers:
        yield
        return
    with compile_caches_disabled(), inductor_provenance_enabled():
        logger.addHandler(handler)
        try:
            yield
        finally:
            logger.removeHandler(handler)
            handler.stream.strings.update(interned_strings())

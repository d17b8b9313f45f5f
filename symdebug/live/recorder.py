"""Record this process's compiles into facts, while attached to torch's trace logger.

:class:`Recorder` is what every capture in this process does: attach a handler to torch's
trace logger, change the settings a faithful record needs (compile caches off, Inductor's
kernel provenance), and build facts from what the handler saw.  A replay records with a
bare one (:mod:`symdebug.live.replay`); :class:`~symdebug.live.live_capture.LiveCapture`
adds the session users hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from symdebug._torch.settings import compile_caches_disabled, inductor_provenance_enabled
from symdebug._torch.trace_logger import (
    interned_strings,
    trace_logger,
    trace_structured_adapted,
)
from symdebug.hooks.cells import cell_aliases
from symdebug.hooks.export_hook import exports_recorded
from symdebug.hooks.handler import CaptureHandler
from symdebug.hooks.mark_hook import marks_recorded
from symdebug.incremental import IncrementalBuilder
from symdebug.model.types import Facts


class Recorder:
    """The handler on torch's trace logger, the settings it changed, the facts it built."""

    def __init__(
        self,
        *,
        disable_caches: bool = True,
        max_compiles: int = 5000,
        kernel_provenance: bool = True,
    ) -> None:
        self.handler = CaptureHandler()
        self.handler.alias_provider = cell_aliases  # frames in notebook cells read "Cell [N]"
        #: Torch's compile caches off while capturing (the default): see :func:`capture`.
        self.disable_caches = disable_caches
        self._kernel_provenance = kernel_provenance
        self._stack: ExitStack | None = None
        self._facts = Facts()
        self._seen = -1
        #: Each compile's own facts built once: a rebuild after a cell costs its new events.
        self._builder = IncrementalBuilder()
        #: Compiles kept: a long notebook drops the oldest beyond it (counted, and said).
        self.max_compiles = max_compiles
        self.dropped_compiles = 0

    def attach(self) -> None:
        """Attach the handler and turn compile caches off, until :meth:`detach`."""
        if self._stack is not None:
            raise RuntimeError("this capture is already running")
        stack = ExitStack()
        if self.disable_caches:
            stack.enter_context(compile_caches_disabled())
        if self._kernel_provenance:  # the kernel -> node mapping (Inductor only)
            stack.enter_context(inductor_provenance_enabled())
        stack.enter_context(exports_recorded(self.handler.stream))
        stack.enter_context(marks_recorded(self.handler.stream))
        stack.enter_context(trace_structured_adapted())
        logger = trace_logger()
        logger.addHandler(self.handler)
        stack.callback(logger.removeHandler, self.handler)
        self._stack = stack

    def detach(self) -> None:
        """Detach the handler and restore every setting; the facts keep what it saw."""
        if self._stack is not None:
            self._stack.close()
            self._stack = None
        # The model is built lazily, on first access: stopping costs the compile nothing.
        self.handler.stream.strings.update(interned_strings())

    def facts(self) -> Facts:
        """The facts of every event so far (rebuilt only when new events arrived)."""
        if len(self.handler.stream.events) != self._seen:
            self._rebuild()
        return self._facts

    def _rebuild(self) -> None:
        """Build the facts again from the stream (each compile's own facts built once)."""
        stream = self.handler.stream
        stream.strings.update(interned_strings())
        if self.handler.alias_provider is not None:
            stream.file_aliases.update(self.handler.alias_provider())
        self.dropped_compiles += stream.drop_oldest_compiles(self.max_compiles)
        self._seen = len(stream.events)
        self._facts = self._builder.build(stream, capture_errors=self.handler.errors)
        self._facts.dropped_compiles = self.dropped_compiles

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Record the compiles that happen in the block (a no-op while capturing)."""
        with attached(self.handler):
            yield


@contextmanager
def attached(handler: CaptureHandler) -> Iterator[None]:
    """Record into an existing capture's handler for the block (a no-op while it runs)."""
    logger = trace_logger()
    if handler in logger.handlers:
        yield
        return
    with compile_caches_disabled(), inductor_provenance_enabled(), trace_structured_adapted():
        logger.addHandler(handler)
        try:
            yield
        finally:
            logger.removeHandler(handler)
            handler.stream.strings.update(interned_strings())

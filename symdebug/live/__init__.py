"""Capture in this process: :func:`capture`, :func:`start` and :func:`stop`.

Also what only a live capture can do: torch's lookup order, re-running, sweeps.

:class:`LiveCapture` owns everything live: the handler on torch's trace logger, the
settings it changed, the code objects Dynamo cached on, and the sweeps run so far.  The
:class:`LiveSession` it fills is an ordinary Session whose facts follow the capture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

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
from symdebug.live.session import LiveSession
from symdebug.live.verify import Verdicts, apply_verdicts
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import Facts

if TYPE_CHECKING:
    from symdebug.live.fix_plan import FixPlan
    from symdebug.live.replay import Workload
    from symdebug.live.rerun import RerunResult
    from symdebug.live.sweep import SweepResult
    from symdebug.queries.hunt import Hunt

__all__ = ["LiveCapture", "LiveSession", "attached", "capture", "start", "stop"]


class LiveCapture:
    """One capture in this process, and the session it fills."""

    def __init__(
        self,
        *,
        disable_caches: bool = True,
        max_compiles: int = 5000,
        kernel_provenance: bool = True,
    ) -> None:
        self.handler = CaptureHandler()
        self.handler.alias_provider = cell_aliases  # frames in notebook cells read "Cell [N]"
        self.session = LiveSession(self)
        #: Sweeps and re-runs so far, as the viewers draw them (kept across rebuilds).
        self.sweeps: list[dict[str, Any]] = []
        #: What replaying each fix measured (kept across rebuilds).
        self.verdicts: Verdicts = {}
        #: The last hunt's rows (kept across rebuilds; every view shows them).
        self.hunt_rows: list[HuntRow] = []
        #: Torch's compile caches off while capturing (the default): see :func:`capture`.
        self.disable_caches = disable_caches
        self._kernel_provenance = kernel_provenance
        self._stack: ExitStack | None = None
        self._facts = Facts()
        self._seen = -1
        #: Per frame asked: its code object and torch's ids -> ours, for these facts.
        self._frame_codes: tuple[Facts, dict[Any, Any]] = (self._facts, {})
        #: Each compile's own facts built once: a rebuild after a cell costs its new events.
        self._builder = IncrementalBuilder()
        #: Compiles kept: a long notebook drops the oldest beyond it (counted, and said).
        self.max_compiles = max_compiles
        self.dropped_compiles = 0

    def start(self) -> LiveSession:
        """Attach the handler and turn compile caches off; return the session it fills."""
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
        return self.session

    def stop(self) -> LiveSession:
        """Detach the handler and restore every setting; the session keeps what it saw."""
        if self._stack is not None:
            self._stack.close()
            self._stack = None
        # The model is built lazily, on first access: stopping costs the compile nothing.
        self.handler.stream.strings.update(interned_strings())
        return self.session

    def facts(self) -> Facts:
        """The facts of every event so far (rebuilt only when new events arrived)."""
        stream = self.handler.stream
        if len(stream.events) != self._seen:
            stream.strings.update(interned_strings())
            if self.handler.alias_provider is not None:
                stream.file_aliases.update(self.handler.alias_provider())
            self.dropped_compiles += stream.drop_oldest_compiles(self.max_compiles)
            self._seen = len(stream.events)
            self._facts = self._builder.build(stream, capture_errors=self.handler.errors)
            self._facts.dropped_compiles = self.dropped_compiles
        self._facts.sweeps = self.sweeps
        self._facts.hunt = self.hunt_rows
        if self.verdicts:
            apply_verdicts(self._facts, self.verdicts)
        return self._facts

    def code_object(self, compile_id: str) -> Any:
        """The code object a compile cached on, when it was captured here."""
        compile_ = self.session.index.compile.get(compile_id)
        if compile_ is None:
            return None
        seen = [
            code for torch_id, code in self.handler.code_objects if torch_id == compile_.torch_id
        ]
        return seen[compile_.generation] if compile_.generation < len(seen) else None

    def lookup_order(self, frame: str | int | None = None) -> list[str] | None:
        """Entries of a frame in torch's current lookup order; None when not cached here."""
        from symdebug._torch.dynamo_cache import cache_order

        found = self._frame_code(frame)
        if found is None:
            return None
        code, newest = found
        return [newest.get(cid, cid) for cid in cache_order(code)]

    def _frame_code(self, frame: str | int | None) -> tuple[Any, dict[str, str]] | None:
        """The frame's code object and its compile ids by torch's id, once per facts state.

        Torch reorders a frame's entries on every call (most recently used first), so only
        the order is read each time; which code object holds them changes with the facts.
        """
        from symdebug.predict.predict import frame_compiles

        facts = self.facts()
        if self._frame_codes[0] is not facts:
            self._frame_codes = (facts, {})
        known = self._frame_codes[1]
        if frame not in known:
            compiles = frame_compiles(facts, frame)
            codes = (self.code_object(c.compile_id) for c in reversed(compiles))
            code = next((found for found in codes if found is not None), None)
            # Torch's ids name the newest generation of each (ids restart on reset).
            newest = {c.torch_id: c.compile_id for c in compiles}
            known[frame] = None if code is None else (code, newest)
        found: tuple[Any, dict[str, str]] | None = known[frame]
        return found

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Record the compiles that happen in the block (a no-op while capturing)."""
        with attached(self.handler):
            yield

    def rerun(
        self, compiled: Any, args: Any, kwargs: Any, frame: str | int | None = None
    ) -> RerunResult:
        """Call the compiled function at new sizes (see :meth:`LiveSession.rerun`)."""
        from symdebug.live.rerun import rerun

        return rerun(self, compiled, args, kwargs, frame)

    def sweep(self, compiled: Any, args: Any, kwargs: Any, **options: Any) -> SweepResult:
        """Predict, then re-run, many sizes (see :meth:`LiveSession.sweep`)."""
        from symdebug.live.sweep import expand, sweep

        points = expand(args, kwargs, options.pop("grid", False))
        result = sweep(self, compiled, points, **options)
        self.sweeps.append({"axis": result.axis, **result.plot_data()})  # for the viewers
        return result

    def fix_plan(self, workload: Workload, **options: Any) -> FixPlan:
        """Verify the session's fixes by replaying ``workload`` (:meth:`LiveSession.fix_plan`)."""
        from symdebug.live.verify import fix_plan, verdicts_of

        plan = fix_plan(workload, facts=self.facts(), **options)
        self.verdicts.update(verdicts_of(plan))
        return plan

    def hunt(self, workload: Workload | None, **options: Any) -> Hunt:
        """Replay each constant kept symbolic (:meth:`LiveSession.hunt`); keep the rows."""
        from symdebug.live.hunt import hunt_session

        found = hunt_session(self.facts(), workload, **options)
        self.hunt_rows = found.rows
        return found

    def record_run(self, label: str, result: RerunResult) -> None:
        """Add one re-run to the "runs" series the sizes pane draws."""
        runs = next((s for s in self.sweeps if s.get("axis") == "runs"), None)
        if runs is None:
            keys = ("x", "predicted", "actual", "recompiled", "prediction_held")
            runs = {"axis": "runs", **{key: [] for key in keys}}
            self.sweeps.append(runs)
        values = (label, result.prediction.entry, result.entry, result.recompiled)
        for key, value in zip(("x", "predicted", "actual", "recompiled"), values, strict=True):
            runs[key].append(value)
        runs["prediction_held"].append(result.prediction_held)


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


_active: list[LiveCapture] = []


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

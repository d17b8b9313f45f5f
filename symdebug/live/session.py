"""The session a live capture fills: its facts follow the capture, and it can re-run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from symdebug._torch.dynamo_cache import miss_settings
from symdebug.api import Session
from symdebug.live.fix_plan import fix_plan as plan_fixes
from symdebug.live.plan_types import FixPlan
from symdebug.live.program_state import program_reader
from symdebug.live.replay import TIMEOUT_S, Workload
from symdebug.live.sweep import Reruns
from symdebug.live.verdicts import Verdicts
from symdebug.model.types import Facts
from symdebug.predict.predictors import RunningFrame

if TYPE_CHECKING:
    from symdebug.live.rerun import RerunResult
    from symdebug.live.sweep import SweepResult
    from symdebug.predict.predict import Prediction
    from symdebug.predict.predict_range import RangePrediction
    from symdebug.queries.hunt import Hunt


class OwnCapture(Reruns, Protocol):
    """The capture a live session belongs to (:class:`~symdebug.live.live_capture.LiveCapture`).

    Named by what the session asks of it, so that this module needs no import of the
    capture, which imports it.
    """

    disable_caches: bool
    verdicts: Verdicts

    def hunt(self, workload: Workload | None, **options: Any) -> Hunt:
        """Replay each constant kept symbolic; keep the rows."""
        ...

    def sweep(self, compiled: Any, args: Any, kwargs: Any, **options: Any) -> SweepResult:
        """Predict, then re-run, many sizes."""
        ...

    def record_run(self, label: str, result: RerunResult) -> None:
        """Add one re-run to the series the sizes pane draws."""
        ...


class LiveSession(Session):
    """A Session captured in this process (what :func:`symdebug.capture` yields).

    Its facts are rebuilt when the capture saw new events; ``rerun`` and ``sweep`` call
    the compiled function and read the outcome from torch's own cache.
    """

    def __init__(self, live: OwnCapture) -> None:
        super().__init__()
        self.live = live

    @property
    def facts(self) -> Facts:
        """All facts, current."""
        return self.live.facts()

    def __repr__(self) -> str:
        """The session's counts, and whether torch's compile caches were off (the default)."""
        caches = (
            "compile caches off (the default: every compile cold, each guard with its line)"
            if self.live.disable_caches
            else "compile caches on (a cache hit's guards have no user line)"
        )
        return f"{super().__repr__()[:-1]}; {caches}>"

    @property
    def capture_errors(self) -> int:
        """How many times the capture hook failed (each caught; the compile went on)."""
        return self.live.handler.errors

    def code_object(self, compile_id: str) -> Any:
        """The code object a compile cached on."""
        return self.live.code_object(compile_id)

    def lookup_order(self, frame: str | int | None = None) -> list[str] | None:
        """Entries of a frame in torch's current lookup order."""
        return self.live.lookup_order(frame)

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Record compiles that happen in the block into this session."""
        with self.live.recording():
            yield

    def _running(self, frame: str | int | None) -> RunningFrame:
        """Torch's lookup order now, and a reader of the module's state at each prediction."""
        return RunningFrame(self.lookup_order(frame), program_reader(self.live, frame))

    def predict(
        self,
        /,
        *args: Any,
        frame: str | int | None = None,
        dynamo_config: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Prediction:
        """:meth:`Session.predict`, with this process's recompile limit and error suppression.

        Torch reads them when a call misses, so a live prediction uses the values set now
        unless ``dynamo_config`` says otherwise.
        """
        config = {**miss_settings(), **(dynamo_config or {})}
        return super().predict(*args, frame=frame, dynamo_config=config, **kwargs)

    def predict_range(
        self,
        /,
        *args: Any,
        frame: str | int | None = None,
        dynamo_config: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> RangePrediction:
        """:meth:`Session.predict_range`, with this process's settings (as :meth:`predict`)."""
        config = {**miss_settings(), **(dynamo_config or {})}
        return super().predict_range(*args, frame=frame, dynamo_config=config, **kwargs)

    def fix_plan(
        self,
        workload: Workload,
        *,
        max_replays: int = 12,
        progress: bool = True,
        timeout: float = TIMEOUT_S,
    ) -> FixPlan:
        """Replay ``workload`` under the settings of each suggested fix; return the best plan.

        :func:`symdebug.fix_plan` with this session: each replay runs in a forked child,
        from ``torch._dynamo.reset()`` with the compile caches off, so the user's compiled
        functions keep their cache entries, and this session its facts.  Settings are set,
        marks made on each compiled call's arguments, and a fix that edits a function is
        applied by swapping in its rewritten code.  The fixes that were replayed get
        ``verified``, ``effect`` and ``diff`` (kept as later compiles arrive); the views
        show them.

        Parameters
        ----------
        workload
            A no-argument callable that makes the calls again; it may build the model and
            call ``torch.compile`` itself.  Its return value is compared between runs.
        max_replays
            At most this many runs of ``workload``, the unchanged one included.
        progress
            Show progress on stderr while replaying.
        timeout
            Seconds one replay may take; a replay past it is stopped and said to be.

        Returns
        -------
        FixPlan
            ``changes`` (settings, marks, rewrites, in order), ``settings``, compiles
            ``before`` and ``after`` per frame, ``errors_before``, ``errors_after``,
            ``verified``, ``applied()`` to make the changes for a block and ``code()``.

        Examples
        --------
        >>> plan = s.fix_plan(lambda: [f(torch.randn(n, 4)) for n in (2, 3, 4)])  # doctest: +SKIP
        >>> print(plan)                                                            # doctest: +SKIP
        """
        return plan_fixes(
            workload, self, max_replays=max_replays, progress=progress, timeout=timeout
        )

    def keep_verdicts(self, verdicts: Verdicts) -> None:
        """Keep what replaying each fix measured: set again on the facts of later compiles."""
        self.live.verdicts.update(verdicts)

    def hunt(
        self,
        workload: Workload | None = None,
        *,
        max_replays: int = 25,
        progress: bool = True,
        timeout: float = TIMEOUT_S,
    ) -> Hunt:
        """Hunt overspecialization: for each input a compile held constant, say if it was needed.

        Each constant is replayed with the one change that keeps it symbolic (a mark for a
        size, ``dynamic_sources`` for an int, the whole program dynamic for a float; a
        setting the evidence names for a 0/1 or duck-sized one), in a forked child: the
        user's compiled functions and this session stay as they were.

        Parameters
        ----------
        workload
            A no-argument callable that makes the calls again; None: answer from the facts
            (``needed`` where torch's guards name the code, else ``untested``).
        max_replays
            At most this many runs of ``workload``, the unchanged one included.
        progress
            Show progress on stderr while replaying.
        timeout
            Seconds one replay may take; a replay past it is stopped and said to be.

        Returns
        -------
        Hunt
            Rows (``source``, ``user_name``, ``compiles``, ``verdict``: ``needed``,
            ``avoidable`` or ``untested``), most compiles saved first.  The views show them.
        """
        options = {"max_replays": max_replays, "progress": progress, "timeout": timeout}
        return self.live.hunt(workload, **options)

    def rerun(
        self, compiled: Any, *args: Any, frame: str | int | None = None, **kwargs: Any
    ) -> RerunResult:
        """Call the compiled function at new sizes; report hit or recompile, and check.

        Parameters
        ----------
        compiled
            What ``torch.compile`` returned for the function or module captured here.
        *args, **kwargs
            Shapes (``(17, 64)``) or real values; shapes become tensors with the recorded
            dtype, device, stride order and ``requires_grad``.
        frame
            The compiled frame (name or id); default: the first frame the user called.

        Returns
        -------
        RerunResult
            ``entry``, ``recompiled``, ``new_guards``, ``prediction``, ``prediction_held``,
            ``allclose`` (against eager) and ``seconds`` per call, compiled and eager.
        """
        return self.live.rerun(compiled, args, kwargs, frame)

    def sweep(
        self,
        compiled: Any,
        *args: Any,
        frame: str | int | None = None,
        grid: bool = False,
        run: bool | int = True,
        progress: bool = True,
        **kwargs: Any,
    ) -> SweepResult:
        """Predict, then re-run, the compiled function over many sizes.

        Parameters
        ----------
        compiled
            What ``torch.compile`` returned.
        *args, **kwargs
            One list of values per argument (``x=[(b, 64) for b in range(1, 257)]``),
            zipped, or combined as a grid with ``grid=True``.
        run
            Re-run every point (True), a random sample of that many points, or none.
        progress
            Show a progress bar.

        Returns
        -------
        SweepResult
            ``table`` (a DataFrame when pandas is installed), ``plot()`` and ``plot_data()``.
        """
        options = {"frame": frame, "grid": grid, "run": run, "progress": progress}
        return self.live.sweep(compiled, args, kwargs, **options)

    def record_run(self, label: str, result: RerunResult) -> None:
        """Add one re-run to the "runs" series the sizes pane draws."""
        self.live.record_run(label, result)

"""The capture users start in this process, and what only a live capture can do.

Beyond recording (:class:`~symdebug.live.recorder.Recorder`), :class:`LiveCapture` owns
the session it fills (:class:`~symdebug.live.session.LiveSession`), the code objects Dynamo
cached on and torch's lookup order, re-running and sweeping the compiled function, and
what the views keep across rebuilds: the sweeps, the fixes' verdicts, the hunt's rows.
"""

from __future__ import annotations

from typing import Any

from symdebug._torch.dynamo_cache import cache_order
from symdebug.live.hunt import hunt_session
from symdebug.live.recorder import Recorder
from symdebug.live.replay import Workload
from symdebug.live.rerun import RerunResult
from symdebug.live.rerun import rerun as rerun_compiled
from symdebug.live.session import LiveSession
from symdebug.live.sweep import SweepResult, expand
from symdebug.live.sweep import sweep as sweep_points
from symdebug.live.verdicts import Verdicts, apply_verdicts
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import Facts
from symdebug.predict.predict import frame_compiles
from symdebug.queries.hunt import Hunt


class LiveCapture(Recorder):
    """One capture in this process, and the session it fills."""

    def __init__(
        self,
        *,
        disable_caches: bool = True,
        max_compiles: int = 5000,
        kernel_provenance: bool = True,
    ) -> None:
        super().__init__(
            disable_caches=disable_caches,
            max_compiles=max_compiles,
            kernel_provenance=kernel_provenance,
        )
        #: Sweeps and re-runs so far, as the viewers draw them (kept across rebuilds).
        self.sweeps: list[dict[str, Any]] = []
        #: What replaying each fix measured (kept across rebuilds).
        self.verdicts: Verdicts = {}
        #: The last hunt's rows (kept across rebuilds; every view shows them).
        self.hunt_rows: list[HuntRow] = []
        #: Per frame asked: its code object and torch's ids -> ours, for these facts.
        self._frame_codes: tuple[Facts | None, dict[Any, Any]] = (None, {})
        self.session = LiveSession(self)

    def start(self) -> LiveSession:
        """Attach the handler and turn compile caches off; return the session it fills."""
        self.attach()
        return self.session

    def stop(self) -> LiveSession:
        """Detach the handler and restore every setting; the session keeps what it saw."""
        self.detach()
        return self.session

    def facts(self) -> Facts:
        """The facts of every event so far, with the sweeps, verdicts and hunt kept here."""
        facts = super().facts()
        facts.sweeps = self.sweeps
        facts.hunt = self.hunt_rows
        if self.verdicts:
            apply_verdicts(facts, self.verdicts)
        return facts

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

    def rerun(
        self, compiled: Any, args: Any, kwargs: Any, frame: str | int | None = None
    ) -> RerunResult:
        """Call the compiled function at new sizes (see :meth:`LiveSession.rerun`)."""
        return rerun_compiled(self, compiled, args, kwargs, frame)

    def sweep(self, compiled: Any, args: Any, kwargs: Any, **options: Any) -> SweepResult:
        """Predict, then re-run, many sizes (see :meth:`LiveSession.sweep`)."""
        points = expand(args, kwargs, options.pop("grid", False))
        result = sweep_points(self, compiled, points, **options)
        self.sweeps.append({"axis": result.axis, **result.plot_data()})  # for the viewers
        return result

    def hunt(self, workload: Workload | None, **options: Any) -> Hunt:
        """Replay each constant kept symbolic (:meth:`LiveSession.hunt`); keep the rows."""
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

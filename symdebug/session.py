"""The Session: what one capture or one trace log knows, and the questions it answers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symdebug.model.builder import build
from symdebug.model.types import Compile, Facts, Guard, Recompile, Specialization, Symbol

if TYPE_CHECKING:
    import networkx as nx

    from symdebug.capture.handler import CaptureHandler
    from symdebug.queries.predict import Prediction
    from symdebug.queries.rerun import RerunResult
    from symdebug.queries.sweep import SweepResult
    from symdebug.queries.why import Explanation

Pull = Callable[[], Facts]


class Session:
    """Compiles, symbols, guards, specializations and recompiles of one run.

    A live session (from :func:`symdebug.capture`) rebuilds its facts when new events
    arrived; a session from a trace log or a saved file is fixed.
    """

    def __init__(self, facts: Facts | None = None, *, pull: Pull | None = None) -> None:
        self._facts = facts or Facts()
        self._pull = pull
        self._seen = -1
        self._handler: CaptureHandler | None = None
        self._graph: nx.MultiDiGraph | None = None
        self._sweeps: list[dict[str, Any]] = self._facts.sweeps
        self._graph_of: Facts | None = None

    @classmethod
    def live(cls, handler: CaptureHandler) -> Session:
        """A session that follows a capture handler's event stream."""
        session = cls()
        session._handler = handler
        return session

    def refresh(self) -> None:
        """Rebuild the facts if the capture saw new events since the last build."""
        handler = self._handler
        if handler is None or len(handler.stream.events) == self._seen:
            return
        from symdebug._torch.trace_logger import interned_strings

        handler.stream.strings.update(interned_strings())
        if handler.alias_provider is not None:
            handler.stream.file_aliases.update(handler.alias_provider())
        self._seen = len(handler.stream.events)
        self._facts = build(handler.stream, capture_errors=handler.errors)
        self._facts.sweeps = self._sweeps

    @property
    def facts(self) -> Facts:
        """All facts, current."""
        self.refresh()
        return self._facts

    @property
    def compiles(self) -> list[Compile]:
        """Every frame compile, in the order they happened."""
        return self.facts.compiles

    @property
    def symbols(self) -> list[Symbol]:
        """Symbols and constant dimensions, per compile."""
        return self.facts.symbols

    @property
    def guards(self) -> list[Guard]:
        """Shape guards, deduplicated per compile, each with status and cause."""
        return self.facts.guards

    @property
    def specializations(self) -> list[Specialization]:
        """Sources that became constants, with the cause and guards that forced it."""
        return self.facts.specializations

    @property
    def recompiles(self) -> list[Recompile]:
        """Recompiles with the failed entry, torch's reasons and the failing Guard."""
        return self.facts.recompiles

    @property
    def problems(self) -> dict[str, int]:
        """Unreadable input counted by kind (trace logs), plus capture-hook errors."""
        counts = dict(self.facts.problems)
        if self.facts.capture_errors:
            counts["capture_hook_error"] = self.facts.capture_errors
        return counts

    @property
    def capture_errors(self) -> int:
        """How many times the capture hook failed (each caught; the compile went on)."""
        return self._handler.errors if self._handler is not None else self.facts.capture_errors

    @property
    def graph(self) -> nx.MultiDiGraph:
        """The provenance graph of the facts, with typed edges.

        Nodes: compiles, guards, symbols, sources, FX nodes, kernels, user frames and
        recompiles (see :mod:`symdebug.graph`).
        """
        facts = self.facts
        if self._graph is None or self._graph_of is not facts:
            from symdebug.graph import build_graph

            self._graph, self._graph_of = build_graph(facts), facts
        return self._graph

    def export_graph(self, path: str | os.PathLike[str]) -> None:
        """Write the provenance graph as GraphML (``.graphml``) or node-link JSON (``.json``)."""
        from symdebug.graph import write_graph

        write_graph(self.graph, path)

    def code_object(self, compile_id: str) -> Any:
        """The code object a live compile cached on, when captured in this process."""
        if self._handler is None:
            return None
        compile_ = next((c for c in self.facts.compiles if c.compile_id == compile_id), None)
        if compile_ is None:
            return None
        codes = self._handler.code_objects
        seen = [code for torch_id, code in codes if torch_id == compile_.torch_id]
        return seen[compile_.generation] if compile_.generation < len(seen) else None

    def lookup_order(self, frame: str | int | None = None) -> list[str] | None:
        """Entries of a frame in torch's current lookup order; None when not in this process."""
        from symdebug._torch.dynamo_cache import cache_order
        from symdebug.queries.predict import frame_compiles

        compiles = frame_compiles(self.facts, frame)
        for compile_ in reversed(compiles):
            code = self.code_object(compile_.compile_id)
            if code is not None:
                # Torch's ids name the newest generation of each (ids restart on reset).
                newest = {c.torch_id: c.compile_id for c in compiles}
                return [newest.get(cid, cid) for cid in cache_order(code)]
        return None

    def predict(self, *args: Any, frame: str | int | None = None, **kwargs: Any) -> Prediction:
        """Predict, without running anything, which cache entry serves a call at new sizes.

        Parameters
        ----------
        *args, **kwargs
            The call's arguments: tensors, shapes (``(17, 64)`` or ``torch.Size``), ints,
            and lists, tuples or dicts of them.
        frame
            The compiled frame (name or id); default: the first frame the user called.

        Returns
        -------
        Prediction
            ``entry`` (compile id) or None for a recompile, and each failing entry's first
            failing check with its guard or specialization and user line.
        """
        from symdebug.queries.predict import Predictor

        predictor = Predictor(self.facts, frame, self.lookup_order(frame))
        return predictor.predict(predictor.values(args, kwargs))

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Record compiles that happen in the block into this session (live sessions only)."""
        if self._handler is None:
            raise ValueError(
                "this session was loaded from a file: it can predict, but re-running needs a "
                "session captured in this process (symdebug.capture())"
            )
        from symdebug.capture import attached

        with attached(self._handler):
            yield
        self.refresh()

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
        from symdebug.queries.rerun import rerun

        return rerun(self, compiled, args, kwargs, frame)

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
        from symdebug.queries.sweep import expand, sweep

        points = expand(args, kwargs, grid)
        result = sweep(self, compiled, points, frame=frame, run=run, progress=progress)
        self._sweeps.append({"axis": result.axis, **result.plot_data()})  # for the viewers
        self.facts.sweeps = self._sweeps
        return result

    def record_run(self, label: str, result: RerunResult) -> None:
        """Add one re-run to the "runs" series the sizes pane draws."""
        runs = next((s for s in self._sweeps if s.get("axis") == "runs"), None)
        if runs is None:
            runs = {"axis": "runs", "x": [], "predicted": [], "actual": [], "recompiled": []}
            runs["prediction_held"] = []
            self._sweeps.append(runs)
        values = (label, result.prediction.entry, result.entry, result.recompiled)
        for key, value in zip(("x", "predicted", "actual", "recompiled"), values, strict=True):
            runs[key].append(value)
        runs["prediction_held"].append(result.prediction_held)
        self.facts.sweeps = self._sweeps

    def why(self, source: str, dim: int | None = None) -> Explanation:
        """Explain the state of one input dimension or int.

        Parameters
        ----------
        source
            A source as torch names it (``"L['x'].size()[0]"``) or an argument name.
        dim
            The dimension, when ``source`` is an argument name.

        Returns
        -------
        Explanation
            State, value, cause, guards, user line and fixes; ``str()`` reads as an answer.
        """
        from symdebug.queries.why import why

        return why(self.facts, source, dim, self.graph)

    def to_json(self) -> str:
        """The session as JSON (schema v1)."""
        from symdebug.model.serialize import facts_to_json

        return facts_to_json(self.facts)

    @classmethod
    def from_json(cls, text: str | bytes) -> Session:
        """A session from :meth:`to_json` output."""
        from symdebug.model.serialize import facts_from_json

        return cls(facts_from_json(text))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the session to a JSON file."""
        with open(path, "w", encoding="utf-8") as out:  # noqa: PTH123 - accepts PathLike
            out.write(self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Session:
        """Read a session written by :meth:`save`."""
        with open(path, "rb") as source:  # noqa: PTH123
            return cls.from_json(source.read())

    def to_html(self, path: str | os.PathLike[str], *, redact: bool = False) -> Path:
        """Write a self-contained HTML report (no network access); return its path.

        Parameters
        ----------
        path
            Where to write the report.
        redact
            Leave out source lines and directory names, for reports shared outside a team.
        """
        from symdebug.renderers.html import write_html

        return write_html(self.facts, path, redact=redact)

    def explorer(self, compiled: Any = None) -> Any:
        """The notebook explorer widget; pass the compiled function to enable Run."""
        from symdebug.notebook.widget import Explorer

        return Explorer(self, compiled)

    def _repr_mimebundle_(
        self,
        include: Any = None,  # noqa: ARG002 - IPython's signature; we always offer all three
        exclude: Any = None,  # noqa: ARG002
    ) -> dict[str, Any]:
        """Rich display: session JSON, the report in an iframe, and the text summary."""
        from symdebug.renderers.notebook import mime_bundle

        return mime_bundle(self.facts)

    def __str__(self) -> str:
        from symdebug.renderers.console import render_summary

        return render_summary(self.facts)

    def __repr__(self) -> str:
        facts = self.facts
        return (
            f"<symdebug.Session {facts.source}: {len(facts.compiles)} compiles, "
            f"{len(facts.guards)} guards, {len(facts.recompiles)} recompiles>"
        )

"""The FactsSession: the facts of one run, and the questions that need only facts.

A FactsSession is data plus questions (``why``, ``predict``, the provenance graph, save and
load).  Its views (text, HTML, notebook display) are added by :class:`symdebug.api.Session`,
and a capture running in this process (re-running, torch's lookup order) by
:class:`symdebug.live.LiveSession`: this module knows neither, so the model of a run never
depends on how it is shown or how it was captured.  What a live session adds to a
prediction comes through one hook, :meth:`FactsSession._running`.

The provenance graph (networkx) and the predict engine (numpy) are imported on their first
question, each in one place (:meth:`FactsSession._provenance`,
:meth:`FactsSession._predictions`): reading a log and showing it need neither.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypeVar

from symdebug.file_kinds import check_regular
from symdebug.model.code_types import GraphCode, Kernel
from symdebug.model.index import FactIndex
from symdebug.model.serialize import facts_from_json, facts_to_json
from symdebug.model.types import (
    Compile,
    Facts,
    GraphBreak,
    Guard,
    Recompile,
    SourceExplanation,
    Specialization,
    Symbol,
)
from symdebug.model.words import counted
from symdebug.pipeline import upgrade
from symdebug.queries.constants import constants
from symdebug.queries.hunt import Hunt, ordered, unreplayed
from symdebug.queries.why import Explanation, why
from symdebug.run_files import open_binary

if TYPE_CHECKING:
    import networkx as nx

    from symdebug.graph import Provenance
    from symdebug.predict.predict import Prediction, Predictor
    from symdebug.predict.predict_range import RangePrediction
    from symdebug.predict.predictors import Predictors, RunningFrame

_Session = TypeVar("_Session", bound="FactsSession")
#: Why a session read from a file cannot re-run or sweep (said by :class:`symdebug.api.Session`).
NOT_LIVE = (
    "this session was loaded from a file: it can predict, but re-running needs a session "
    "captured in this process (symdebug.capture())"
)


class FactsSession:
    """Compiles, symbols, guards, specializations and recompiles of one run."""

    def __init__(self, facts: Facts | None = None) -> None:
        self._facts = facts if facts is not None else Facts()
        self._index: tuple[Facts, FactIndex] | None = None
        self._graph: Provenance | None = None
        self._predictors: Predictors | None = None

    @property
    def facts(self) -> Facts:
        """All facts, current."""
        return self._facts

    @property
    def index(self) -> FactIndex:
        """The facts grouped by compile and by input (rebuilt when the facts change)."""
        facts = self.facts
        if self._index is None or self._index[0] is not facts:
            self._index = (facts, FactIndex(facts))
        return self._index[1]

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
    def explanations(self) -> list[SourceExplanation]:
        """Why each input is dynamic or a constant, one per input (what ``why`` reads)."""
        return self.facts.explanations

    @property
    def graph_breaks(self) -> list[GraphBreak]:
        """Where Dynamo stopped tracing: reason, user line, resume frames, lost dynamism.

        A frame torch skipped for good (``Unsupported``: it runs eagerly) is a break with
        ``skipped`` set and no resume frame.
        """
        return self.facts.graph_breaks

    @property
    def kernels(self) -> list[Kernel]:
        """Inductor's generated kernels: size arguments, baked-in literals, FX nodes, source."""
        return self.facts.kernels

    @property
    def graph_code(self) -> list[GraphCode]:
        """Each compiled graph's wrapper: the sizes it asserts and the dims it baked in."""
        return self.facts.graph_code

    @property
    def problems(self) -> dict[str, int]:
        """Unreadable input counted by kind (trace logs), plus capture-hook errors."""
        counts = dict(self.facts.problems)
        if self.capture_errors:
            counts["capture_hook_error"] = self.capture_errors
        return counts

    @property
    def capture_errors(self) -> int:
        """How many times the capture hook failed (each caught; the compile went on)."""
        return self.facts.capture_errors

    @property
    def graph(self) -> nx.MultiDiGraph:
        """The provenance graph of the facts, with typed edges.

        Nodes: compiles, guards, symbols, sources, FX nodes, kernels, user frames and
        recompiles (see :mod:`symdebug.graph`).
        """
        return self._provenance().graph

    def export_graph(self, path: str | os.PathLike[str]) -> None:
        """Write the provenance graph as GraphML (``.graphml``) or node-link JSON (``.json``)."""
        self._provenance().write(path)

    def _provenance(self) -> Provenance:
        """The graph of the facts as they are now, built once per state of the facts."""
        # lazy: symdebug.graph imports networkx, which reading and showing a log never need
        from symdebug.graph import Provenance  # noqa: PLC0415

        facts = self.facts
        if self._graph is None or self._graph.facts is not facts:
            self._graph = Provenance(facts)
        return self._graph

    def hunt(self) -> Hunt:
        """Each input a compile held constant: ``needed`` where torch's guards name the code.

        A session read from a log has no workload to replay, so the other constants are
        ``untested``; a live session's :meth:`LiveSession.hunt` replays them.
        """
        return Hunt(ordered([unreplayed(c) for c in constants(self.facts)]))

    def predict(
        self,
        /,
        *args: Any,
        frame: str | int | None = None,
        dynamo_config: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Prediction:
        """Predict, without running anything, what torch does with a call at new sizes.

        Parameters
        ----------
        *args, **kwargs
            The call's arguments: tensors, shapes (``(17, 64)`` or ``torch.Size``), ints,
            and lists, tuples or dicts of them.  A keyword may also name a module attribute
            or another source that is no argument, as the user writes it or as torch does:
            ``**{"self.chunk": 1}``, ``**{"self.lin.weight": (32, 16)}``,
            ``**{"L['self'].chunk": 1}``.
        frame
            The compiled frame (name or id); default: the first frame the user called.
        dynamo_config
            The run's ``recompile_limit`` and ``suppress_errors``
            (``torch._dynamo.config``), when they are known; without them torch's default
            recompile limit is assumed, and an unknown ``suppress_errors`` that would change
            the answer makes it uncertain.

        Returns
        -------
        Prediction
            ``outcome`` (``"served"``, ``"recompile"`` or ``"eager"``), ``entry`` (the compile
            id that serves), ``eager`` (why torch runs the call eagerly: frame skipped for
            good, recompile limit), each failing entry's first failing check with its guard
            or specialization and user line, and ``certain``: False when a check on the way
            could not be evaluated (``unchecked``; ``conditions`` says what would make the
            answer wrong).

        Examples
        --------
        >>> s.predict(x=(4, 16), **{"self.chunk": 1})  # doctest: +SKIP
        """
        running = self._running(frame)
        return self._predictions().predict(frame, dynamo_config, running, args, kwargs)

    def predict_range(
        self,
        /,
        *args: Any,
        frame: str | int | None = None,
        dynamo_config: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> RangePrediction:
        """Predict millions of calls at once: some sizes given as arrays, lists or ranges.

        Parameters
        ----------
        *args, **kwargs
            As for :meth:`predict`; a dimension or int may be an array, a list of ints or a
            ``range`` (all of one length, or broadcastable): one call per element.
        frame, dynamo_config
            As for :meth:`predict`.

        Returns
        -------
        RangePrediction
            Per call, the serving entry (or recompile, or eager) and whether it is certain;
            ``counts()`` sums them up.

        Examples
        --------
        >>> s.predict_range(x=(np.arange(1, 1_000_001), 16)).counts()  # doctest: +SKIP
        {'0/1': 999996, 'recompile': 4}
        """
        running = self._running(frame)
        return self._predictions().predict_range(frame, dynamo_config, running, args, kwargs)

    def _predictor(self, frame: str | int | None, settings: dict[str, Any] | None) -> Predictor:
        """The frame's predictor for these settings, built once per state of the facts."""
        return self._predictions().predictor(frame, settings, self._running(frame))

    def _predictions(self) -> Predictors:
        """The predictors of the facts as they are now (each built on its first question)."""
        # lazy: symdebug.predict imports numpy, which reading and showing a log never need
        from symdebug.predict.predictors import Predictors  # noqa: PLC0415

        facts = self.facts
        if self._predictors is None or self._predictors.facts is not facts:
            self._predictors = Predictors(facts)
        return self._predictors

    def _running(self, frame: str | int | None) -> RunningFrame | None:  # noqa: ARG002
        """What the program running in this process says of ``frame``, for a prediction.

        The hook of a session captured here (:class:`symdebug.live.LiveSession`): torch's
        lookup order now and a reader of the module's state.  A session of facts alone
        (read from a file) has no running program: None, and a prediction assumes Dynamo's
        order and reads no module.
        """
        return None

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
        if not isinstance(source, str):
            raise TypeError(
                f"why() takes a source or an argument name, not {type(source).__name__}: "
                "why('x', 0) for dimension 0 of x, why(\"L['x'].size()[0]\")"
            )
        return why(self.index, source, dim, self.graph)

    def to_json(self) -> str:
        """The session as JSON (the document every view reads)."""
        return facts_to_json(self.facts)

    @classmethod
    def from_json(cls: type[_Session], text: str | bytes) -> _Session:
        """A session from :meth:`to_json` output (older documents get today's answers)."""
        return cls._read(facts_from_json(text))

    @classmethod
    def _read(cls: type[_Session], facts: Facts) -> _Session:
        """A session of facts read from a document, completed as today's are."""
        return cls(upgrade(facts))  # an older document: the passes of what it lacks

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the session to a JSON file."""
        with open(path, "w", encoding="utf-8") as out:  # noqa: PTH123 - accepts PathLike
            out.write(self.to_json())

    @classmethod
    def load(cls: type[_Session], path: str | os.PathLike[str]) -> _Session:
        """Read a session written by :meth:`save`."""
        check_regular(path, "saved session")  # a FIFO or /dev/zero would hang or never end
        with open_binary(path) as source:  # read as it streams in, in bounded memory
            try:
                facts = facts_from_json(source)
            except ValueError as error:
                raise ValueError(f"{path}: {error}") from None
        return cls._read(facts)

    def __repr__(self) -> str:
        facts = self.facts
        return (
            f"<symdebug.Session {facts.source}: {counted(len(facts.compiles), 'compile')}, "
            f"{counted(len(facts.guards), 'guard')}, "
            f"{counted(len(facts.recompiles), 'recompile')}>"
        )

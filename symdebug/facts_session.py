"""The FactsSession: the facts of one run, and the questions that need only facts.

A FactsSession is data plus questions (``why``, ``predict``, the provenance graph, save and
load).  Its views (text, HTML, notebook display) are added by :class:`symdebug.api.Session`,
and a capture running in this process (re-running, torch's lookup order) by
:class:`symdebug.live.LiveSession`: this module knows neither, so the model of a run never
depends on how it is shown or how it was captured.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, TypeVar

from symdebug.file_kinds import check_regular
from symdebug.model.code_types import GraphCode, Kernel
from symdebug.model.index import FactIndex
from symdebug.model.serialize import facts_from_json, facts_to_json, stale_fixes, stale_names
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

if TYPE_CHECKING:
    import networkx as nx

    from symdebug.predict.predict import Prediction, Predictor, ProgramReader
    from symdebug.predict.predict_range import RangePrediction
    from symdebug.queries.hunt import Hunt
    from symdebug.queries.why import Explanation

_Session = TypeVar("_Session", bound="FactsSession")
NOT_LIVE = (
    "this session was loaded from a file: it can predict, but re-running needs a session "
    "captured in this process (symdebug.capture())"
)


class FactsSession:
    """Compiles, symbols, guards, specializations and recompiles of one run."""

    def __init__(self, facts: Facts | None = None) -> None:
        self._facts = facts if facts is not None else Facts()
        self._index: tuple[Facts, FactIndex] | None = None
        self._graph: tuple[Facts, nx.MultiDiGraph] | None = None
        self._predictors: tuple[Facts, dict[Hashable, Predictor]] | None = None

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
        from symdebug.graph import build_graph

        facts = self.facts
        if self._graph is None or self._graph[0] is not facts:
            self._graph = (facts, build_graph(facts))
        return self._graph[1]

    def export_graph(self, path: str | os.PathLike[str]) -> None:
        """Write the provenance graph as GraphML (``.graphml``) or node-link JSON (``.json``)."""
        from symdebug.graph import write_graph

        write_graph(self.graph, path)

    def lookup_order(self, frame: str | int | None = None) -> list[str] | None:  # noqa: ARG002
        """Entries of a frame in torch's lookup order: known only to a live session."""
        return None

    def hunt(self) -> Hunt:
        """Each input a compile held constant: ``needed`` where torch's guards name the code.

        A session read from a log has no workload to replay, so the other constants are
        ``untested``; a live session's :meth:`LiveSession.hunt` replays them.
        """
        from symdebug.queries.constants import constants
        from symdebug.queries.hunt import Hunt, ordered, unreplayed

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
        from symdebug.predict.predict import collection_paused

        with collection_paused():  # the first call builds a model of every entry
            predictor = self._predictor(frame, dynamo_config)
            return predictor.predict(predictor.values(args, kwargs))

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
        from symdebug.predict.predict_range import predict_range

        return predict_range(self._predictor(frame, dynamo_config), args, kwargs)

    def _predictor(self, frame: str | int | None, settings: dict[str, Any] | None) -> Predictor:
        """The frame's predictor, built once per state of the facts and reused."""
        from symdebug.predict.predict import Predictor

        facts, order = self.facts, self.lookup_order(frame)
        if self._predictors is None or self._predictors[0] is not facts:
            self._predictors = (facts, {})
        key = (frame, tuple(order or ()), tuple(sorted((settings or {}).items(), key=str)))
        program = self._program_reader(frame)
        try:
            found = self._predictors[1].get(key)
        except TypeError:  # a setting that is no hashable value: build, do not keep
            return Predictor(facts, frame, order, settings, program)
        if found is None:
            found = self._predictors[1][key] = Predictor(facts, frame, order, settings, program)
        return found

    def _program_reader(self, frame: str | int | None) -> ProgramReader | None:  # noqa: ARG002
        """Reads the compiled module's state now: only a live session holds the module."""
        return None

    def rerun(self, compiled: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002
        """Re-running needs the live capture (see :class:`symdebug.live.LiveSession`)."""
        raise ValueError(NOT_LIVE)

    def sweep(self, compiled: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002
        """Sweeping needs the live capture (see :class:`symdebug.live.LiveSession`)."""
        raise ValueError(NOT_LIVE)

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
        from symdebug.queries.why import why

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
        from symdebug.processors.explanations import explain_sources

        renamed = stale_names(facts)
        if renamed:  # written before symbols carried the user's names (v6 and older)
            from symdebug.processors.user_names import name_symbols

            name_symbols(facts)
        from symdebug.processors.guard_names import name_read_facts

        name_read_facts(facts)  # written before guards and recompiles had the user's names
        if stale_fixes(facts):  # written when fixes were text (v4 and older): suggest again
            from symdebug.processors.fixes import suggest_fixes

            suggest_fixes(facts)
            explain_sources(facts)
        elif renamed or (not facts.explanations and facts.symbols):  # older explanations
            explain_sources(facts)
        return cls(facts)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the session to a JSON file."""
        with open(path, "w", encoding="utf-8") as out:  # noqa: PTH123 - accepts PathLike
            out.write(self.to_json())

    @classmethod
    def load(cls: type[_Session], path: str | os.PathLike[str]) -> _Session:
        """Read a session written by :meth:`save`."""
        check_regular(path, "saved session")  # a FIFO or /dev/zero would hang or never end
        with open(path, "rb") as source:  # noqa: PTH123 - read as it streams in, in bounded memory
            return cls._read(facts_from_json(source))

    def __repr__(self) -> str:
        facts = self.facts
        return (
            f"<symdebug.Session {facts.source}: {counted(len(facts.compiles), 'compile')}, "
            f"{counted(len(facts.guards), 'guard')}, "
            f"{counted(len(facts.recompiles), 'recompile')}>"
        )

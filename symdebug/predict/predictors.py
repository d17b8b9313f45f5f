"""A session's predictions: one :class:`~symdebug.predict.predict.Predictor` per question asked.

A predictor is built once per frame, lookup order and settings, and reused while the facts
stay the same (a live session's facts are rebuilt as compiles arrive: a new
:class:`Predictors` then).  What only a capture in this process knows, torch's lookup order
and the module's state now, comes in a :class:`RunningFrame`; a session read from a file
has none.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from symdebug.model.types import Facts
from symdebug.predict.predict import Prediction, Predictor, ProgramReader, collection_paused
from symdebug.predict.predict_range import RangePrediction, predict_range


@dataclass(frozen=True)
class RunningFrame:
    """What the program running in this process says of a frame (a live session's)."""

    order: list[str] | None  # the frame's entries in torch's lookup order now
    program: ProgramReader | None  # reads the module's and torch's state at each prediction


class Predictors:
    """The predictors of one state of a session's facts, each built on first use."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._built: dict[Hashable, Predictor] = {}

    def predict(
        self,
        frame: str | int | None,
        settings: dict[str, Any] | None,
        running: RunningFrame | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
    ) -> Prediction:
        """One call's answer (see :meth:`symdebug.api.Session.predict`)."""
        with collection_paused():  # the first call builds a model of every entry
            predictor = self.predictor(frame, settings, running)
            return predictor.predict(predictor.values(args, kwargs))

    def predict_range(
        self,
        frame: str | int | None,
        settings: dict[str, Any] | None,
        running: RunningFrame | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
    ) -> RangePrediction:
        """Many calls' answers (see :meth:`symdebug.api.Session.predict_range`)."""
        return predict_range(self.predictor(frame, settings, running), args, kwargs)

    def predictor(
        self, frame: str | int | None, settings: dict[str, Any] | None, running: RunningFrame | None
    ) -> Predictor:
        """The frame's predictor for this lookup order and these settings, built once."""
        order = running.order if running is not None else None
        program = running.program if running is not None else None
        key = (frame, tuple(order or ()), tuple(sorted((settings or {}).items(), key=str)))
        try:
            found = self._built.get(key)
        except TypeError:  # a setting that is no hashable value: build, do not keep
            return Predictor(self.facts, frame, order, settings, program)
        if found is None:
            found = self._built[key] = Predictor(self.facts, frame, order, settings, program)
        return found

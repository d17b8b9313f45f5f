"""Predict which cache entry serves a call at new sizes, or which check makes it recompile.

Works from the facts alone (live sessions and trace logs alike), so it needs no compiled
function and runs nothing: each entry's checks (see :mod:`entry_model`) are evaluated in
cache lookup order, vectorised over many sizes at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symdebug.model.index import FactIndex
from symdebug.model.specializations_builder import is_module_state
from symdebug.model.types import Compile, Facts, Frame, Guard, Specialization
from symdebug.queries.arguments import bind, signature_from_source
from symdebug.queries.entry_model import Check, EntryModel, entry_model


@dataclass(slots=True)
class Failure:
    """The first check of one entry that the new sizes fail, with its provenance."""

    entry: str
    kind: str
    check: str
    cause: str
    values: dict[str, Any]
    guard: Guard | None = None
    specialization: Specialization | None = None

    @property
    def user_frame(self) -> Frame | None:
        """The user line behind the check, when torch recorded one."""
        if self.guard is not None and self.guard.user_frame is not None:
            return self.guard.user_frame
        return self.specialization.user_frame if self.specialization is not None else None

    def __str__(self) -> str:
        got = ", ".join(f"{k} = {v}" for k, v in self.values.items())
        where = (
            f"  [{self.user_frame.filename}:{self.user_frame.lineno}]" if self.user_frame else ""
        )
        return f"{self.entry}: {self.kind} {self.check} fails ({got}; {self.cause}){where}"


@dataclass(slots=True)
class Prediction:
    """Which entry would serve (``entry``), or None for a recompile, and why the others fail."""

    entry: str | None
    failures: list[Failure] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    frame: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def recompiles(self) -> bool:
        """True when no entry serves: torch would compile again."""
        return self.entry is None

    def __str__(self) -> str:
        head = f"served by {self.entry}" if self.entry else "recompiles"
        lines = [f"{self.frame}: {head} (lookup order {', '.join(self.order)})"]
        lines += [f"  {failure}" for failure in self.failures]
        if self.unchecked:
            lines.append(f"  not checked ({len(self.unchecked)}): {', '.join(self.unchecked[:5])}")
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


class Predictor:
    """Entry models of one frame, built once, evaluated on one or many calls."""

    def __init__(
        self, facts: Facts, frame: str | int | None = None, order: Sequence[str] | None = None
    ) -> None:
        self.compiles = frame_compiles(facts, frame)
        self.notes = [
            f"{c.compile_id} failed ({c.fail_type}): it is no cache entry"
            for c in self.compiles
            if c.status != "ok"
        ]
        self.compiles = [c for c in self.compiles if c.status == "ok"] or self.compiles
        by_id: dict[str, Compile] = {c.compile_id: c for c in self.compiles if c.status == "ok"}
        # Torch's lookup order when known (live); else newest first, as Dynamo inserts them.
        ids = list(reversed(by_id)) if order is None else [c for c in order if c in by_id]
        index = FactIndex(facts)
        self.models = [entry_model(index, by_id[cid]) for cid in ids]
        first = self.compiles[0]
        self.frame = first.name
        self.signature = first.signature or signature_from_source(
            first.filename, first.lineno, first.name
        )

    def values(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """Sources of one call."""
        if self.signature is None:
            if args:
                raise TypeError(
                    f"the signature of {self.frame} is unknown here: pass keyword arguments"
                )
            return {f"L[{k!r}]": v for k, v in kwargs.items()}
        return bind(self.signature, args, kwargs)

    def predict(self, values: Mapping[str, Any]) -> Prediction:
        """One call: the serving entry and every entry's first failing check."""
        order = [m.compile_id for m in self.models]
        prediction = Prediction(None, order=order, frame=self.frame, notes=list(self.notes))
        for model in self.models:
            prediction.unchecked += [f"{code} (cannot be parsed)" for code in model.unparsed]
            failure = _first_failure(model, values, prediction.unchecked)
            if failure is None:
                prediction.entry = model.compile_id
                break
            prediction.failures.append(failure)
        return prediction

    def serving(self, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """Many calls at once: index into ``self.models`` of the serving entry, or -1."""
        count = len(next(iter(columns.values()))) if columns else 0
        result = np.full(count, -1, dtype=np.int64)
        for index in reversed(range(len(self.models))):
            result[_passes(self.models[index], columns, count)] = index
        return result


def _evaluate(check: Check, values: Mapping[str, Any]) -> Any:
    """The check's result, or None when it cannot be evaluated (then it is not checked)."""
    try:
        return check.evaluate(values)
    except Exception:  # noqa: BLE001 - a check text we cannot run says nothing about the sizes
        return None


def _usable(check: Check, values: Mapping[str, Any]) -> bool:
    return all(source in values for source in check.sources)


def _first_failure(
    model: EntryModel, values: Mapping[str, Any], unchecked: list[str]
) -> Failure | None:
    for check in model.checks:
        if not _usable(check, values):
            # Module parameters and buffers are not arguments; their sizes do not change.
            if check.text not in unchecked and not all(map(is_module_state, check.sources)):
                unchecked.append(check.text)
            continue
        result = _evaluate(check, values)
        if result is None:
            unchecked.append(f"{check.text} (cannot be evaluated)")
            continue
        if not bool(np.all(result)):
            seen = {s: values[s] for s in check.sources}
            return Failure(
                model.compile_id,
                check.kind,
                check.text,
                check.cause,
                seen,
                check.guard,
                check.specialization,
            )
    return None


def _passes(model: EntryModel, columns: Mapping[str, np.ndarray], count: int) -> np.ndarray:
    mask = np.ones(count, dtype=bool)
    for check in model.checks:
        result = _evaluate(check, columns) if _usable(check, columns) else None
        if result is not None:
            mask &= np.broadcast_to(np.asarray(result, dtype=bool), (count,))
    return mask


def frame_compiles(facts: Facts, frame: str | int | None) -> list[Compile]:
    """The compiles of one frame: by name, by frame id, or the first frame called."""
    known = facts.compiles
    if not known:
        raise ValueError("nothing was compiled in this session: there is no cache entry to predict")
    if frame is None:
        frame = min(c.frame_id for c in known)
    chosen = [c for c in known if frame in (c.frame_id, c.name)]
    if not chosen:
        names = sorted({c.name for c in known})
        raise ValueError(f"no compiled frame {frame!r}; frames: {', '.join(names)}")
    return [c for c in chosen if c.frame_id == chosen[0].frame_id]

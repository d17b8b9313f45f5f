"""Sweep a compiled function over many sizes: predict every point, then re-run them.

Prediction covers all points at once (vectorised, from the cache as it stood before the
sweep); re-running (all points, a sample, or none) shows what torch actually did, point by
point, with the prediction made just before each call.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tqdm.auto import tqdm

from symdebug._torch.dynamo_cache import miss_settings
from symdebug.live.program_view import ProgramView
from symdebug.live.sweep_plot import sweep_figure
from symdebug.model.names import input_names, user_name
from symdebug.predict.arguments import OBJECT_PREFIX
from symdebug.predict.predict import EAGER, Predictor
from symdebug.predict.predict_range import column_of

if TYPE_CHECKING:
    from symdebug.live.rerun import RerunResult

Point = tuple[tuple[Any, ...], dict[str, Any]]


class Reruns(ProgramView, Protocol):
    """A capture that re-runs a point (:meth:`~symdebug.live.live_capture.LiveCapture.rerun`)."""

    def rerun(
        self, compiled: Any, args: Any, kwargs: Any, frame: str | int | None = None
    ) -> RerunResult:
        """Call the compiled function at new sizes, and compare with the prediction."""
        ...


@dataclass(slots=True)
class SweepResult:
    """One row per point: sizes, predicted entry, actual entry, recompiles, timings."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    axis: str = ""

    @property
    def table(self) -> Any:
        """A pandas DataFrame when pandas is installed, else the list of rows.

        An entry column says ``recompile`` where no entry served (never a missing value).
        """
        rows = [_said(row) for row in self.rows]
        try:
            # lazy: pandas is optional; without it the table is the list of rows
            import pandas as pd  # noqa: PLC0415
        except ImportError:
            return rows
        return pd.DataFrame(rows)

    def plot_data(self) -> dict[str, list[Any]]:
        """Columns a viewer can draw: size on x, predicted and actual serving entry.

        ``predicted`` is the prediction made before the sweep; ``predicted_at_call`` the one
        made just before each re-run call (after the sweep's own recompiles), which
        ``prediction_held`` judges: a viewer draws that one, so its picture and the count of
        misses agree.
        """
        keys = ("x", "predicted", "predicted_at_call", "actual", "recompiled", "prediction_held")
        return {key: [row.get(key) for row in self.rows] for key in keys}

    def plot(self) -> Any:
        """A matplotlib figure: size vs serving entry, recompiles marked.

        Raises
        ------
        ImportError
            Without matplotlib (``pip install 'symdebug[plot]'``); the sweep's rows stay.
        """
        return sweep_figure(self.plot_data(), self.axis)

    def __repr__(self) -> str:
        recompiled = sum(bool(row.get("recompiled")) for row in self.rows)
        wrong = sum(row.get("prediction_held") is False for row in self.rows)
        return (
            f"<SweepResult: {len(self.rows)} points over {self.axis or 'the call'}; "
            f"{recompiled} recompiled; {wrong} predictions did not hold; .table, .plot()>"
        )


#: The columns of a row that name a cache entry; None there means no entry served.
ENTRY_COLUMNS = ("predicted", "predicted_at_call", "actual")


def _said(row: dict[str, Any]) -> dict[str, Any]:
    """A row as a table shows it: ``recompile`` (or ``eager``) where no entry served."""
    said = dict(row)
    for column in ENTRY_COLUMNS:
        if column in said and said[column] is None:
            outcome = row.get("predicted_outcome") if column == "predicted" else "recompile"
            said[column] = outcome if outcome in ("recompile", "eager") else "recompile"
    return said


def expand(args: Sequence[Any], kwargs: Mapping[str, Any], grid: bool) -> list[Point]:
    """Points from per-argument lists: zipped (default) or their cartesian product."""
    columns = [*args, *kwargs.values()]
    if not columns:
        raise ValueError("sweep needs at least one argument with a list of sizes")
    rows = itertools.product(*columns) if grid else zip(*columns, strict=True)
    names = list(kwargs)
    return [
        (tuple(row[: len(args)]), dict(zip(names, row[len(args) :], strict=True))) for row in rows
    ]


def _axis(points: list[Point], predictor: Predictor) -> tuple[str, list[Any]]:
    """The first value that changes between the points, named as the user's code names it."""
    values = [predictor.values(a, k) for a, k in points]
    for key in values[0]:
        column = [v.get(key) for v in values]
        if (
            not key.startswith(("ndim:", "len:", OBJECT_PREFIX))
            and ".stride()" not in key
            and len(set(map(str, column))) > 1
        ):
            return user_name(key, input_names(predictor.compiles)), column
    return "point", list(range(len(points)))


def predict_points(predictor: Predictor, points: list[Point]) -> list[str | None]:
    """Serving entry per point, vectorised over points that bind the same sources."""
    return [entry for entry, _, _ in predict_outcomes(predictor, points)]


def predict_outcomes(
    predictor: Predictor, points: list[Point]
) -> list[tuple[str | None, str, bool]]:
    """Per point: the serving entry, the outcome (served, recompile, eager) and certainty."""
    values = [predictor.values(a, k) for a, k in points]
    keys = set(values[0])
    if any(set(v) != keys for v in values):
        found = [predictor.predict(v) for v in values]
        return [(p.entry, p.outcome, p.certain) for p in found]
    columns = {key: column_of(key, [v[key] for v in values]) for key in keys}
    served, certain = predictor.answers(columns)
    return [
        (_entry(predictor, i), _outcome(i), bool(c)) for i, c in zip(served, certain, strict=True)
    ]


def _entry(predictor: Predictor, index: int) -> str | None:
    return predictor.models[index].compile_id if index >= 0 else None


def _outcome(index: int) -> str:
    return "served" if index >= 0 else "eager" if index == EAGER else "recompile"


def _chosen(count: int, run: bool | int, seed: int) -> set[int]:
    if run is True:
        return set(range(count))
    if run is False or run <= 0:
        return set()
    return set(random.Random(seed).sample(range(count), min(run, count)))  # noqa: S311 - sampling


def sweep(
    live: Reruns,
    compiled: Callable[..., Any],
    points: list[Point],
    *,
    frame: str | int | None = None,
    run: bool | int = True,
    progress: bool = True,
) -> SweepResult:
    """Predict all points, then re-run the chosen ones with a progress bar."""
    predictor = Predictor(live.facts(), frame, live.lookup_order(frame), miss_settings())
    predicted = predict_outcomes(predictor, points)
    axis, xs = _axis(points, predictor)
    chosen = _chosen(len(points), run, seed=0)
    result = SweepResult(axis=axis)
    for index in tqdm(range(len(points)), desc="symdebug sweep", disable=not progress):
        args, kwargs = points[index]
        entry, expected, certain = predicted[index]
        row: dict[str, Any] = {"x": xs[index], "predicted": entry}
        row.update(predicted_outcome=expected, predicted_certain=certain)
        if index in chosen:
            outcome = live.rerun(compiled, args, kwargs, frame)
            row.update(
                actual=outcome.entry,
                recompiled=outcome.recompiled,
                ran_eager=outcome.ran_eager,
                predicted_at_call=outcome.prediction.entry,
                certain_at_call=outcome.prediction.certain,
                prediction_held=outcome.prediction_held,
                allclose=outcome.allclose,
                compiled_ms=outcome.seconds["compiled"] * 1e3,
                eager_ms=outcome.seconds["eager"] * 1e3,
            )
        result.rows.append(row)
    return result

"""Draw a sweep: size on x, the cache entry that served on y, recompiles marked."""

from __future__ import annotations

import sys
from typing import Any

from symdebug.model.values import CompileId


def _lanes(data: dict[str, list[Any]]) -> dict[str, int]:
    names = [e for e in data["predicted"] + _shown_predictions(data) + data["actual"] if e]
    ordered = sorted(set(names), key=lambda cid: CompileId(cid).sort_key)
    return {name: index for index, name in enumerate(ordered)}


def _shown_predictions(data: dict[str, list[Any]]) -> list[Any]:
    """Per point, the prediction ``prediction_held`` judged: the one just before a re-run call."""
    before = data["predicted"]
    at_call = data.get("predicted_at_call") or [None] * len(before)
    held = data.get("prediction_held") or [None] * len(before)
    return [
        now if judged is not None else first
        for first, now, judged in zip(before, at_call, held, strict=True)
    ]


def sweep_figure(data: dict[str, list[Any]], axis: str) -> Any:
    """A matplotlib Figure of a sweep's plot data, ``axis`` on x (requires matplotlib).

    In IPython the kernel's backend stays (it is what shows figures in a notebook); the
    figure is closed in pyplot, so that a cell that returns it shows it once.
    """
    try:
        # lazy: matplotlib is optional, and only a plot needs it
        import matplotlib as mpl  # noqa: PLC0415
    except ImportError:
        raise ImportError(
            "a sweep's plot needs matplotlib: pip install 'symdebug[plot]' (the sweep's "
            "rows are kept: .table, .rows)"
        ) from None

    if "IPython" not in sys.modules:
        mpl.use("Agg", force=False)
    # lazy: pyplot after the backend is chosen (a script without IPython draws with Agg)
    import matplotlib.pyplot as plt  # noqa: PLC0415

    lanes = _lanes(data)
    figure, axes = plt.subplots(figsize=(8, 3))
    recompile_lane = len(lanes)
    predicted = [
        lanes.get(e, recompile_lane) if e else recompile_lane for e in _shown_predictions(data)
    ]
    actual = [lanes.get(e, recompile_lane) if e else recompile_lane for e in data["actual"]]
    axes.scatter(
        data["x"],
        predicted,
        marker="o",
        facecolors="none",
        edgecolors="tab:blue",
        label="predicted (just before each call)",
    )
    axes.scatter(data["x"], actual, marker="x", color="tab:orange", label="actual")
    recompiled = [x for x, flag in zip(data["x"], data["recompiled"], strict=True) if flag]
    for x in recompiled:
        axes.axvline(x, color="tab:red", alpha=0.25, linewidth=1)
    axes.set_yticks(range(recompile_lane + 1), [*lanes, "recompile"])
    axes.set_xlabel(axis)
    axes.set_ylabel("cache entry")
    # outside the axes: a legend inside covers the points it explains
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", borderaxespad=0)
    figure.tight_layout()
    plt.close(figure)
    return figure

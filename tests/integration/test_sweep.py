"""Sweep over 64 sizes with a progress bar: table, figure, and data for the viewers."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import symdebug


def model(x, n: int):
    if x.shape[0] > 40:
        x = x * 2
    return x.view(-1, 2).sum(0) * n


def test_sweep_over_64_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pd = pytest.importorskip("pandas")
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(8, 4), 3)
    result = s.sweep(compiled, x=[(b, 4) for b in range(2, 66)], n=[3] * 64)
    assert "symdebug sweep" in capsys.readouterr().err  # the progress bar ran
    table = result.table
    assert isinstance(table, pd.DataFrame) and len(table) == 64
    assert result.axis == "x.shape[0]"  # the user's name (issue 46, point 23)
    assert table["prediction_held"].all() and table["allclose"].all()
    recompiles = table[table["recompiled"]]
    assert list(recompiles["x"]) == [41]  # the branch flips once, at 41
    assert table.loc[table["x"] <= 40, "predicted"].eq("0/0").all()
    # before the sweep these would recompile: said, never NaN
    assert table.loc[table["x"] > 40, "predicted"].eq("recompile").all()
    assert not table[["predicted", "predicted_at_call", "actual"]].isna().any().any()
    figure = result.plot()
    plt = pytest.importorskip("matplotlib.pyplot")
    assert not plt.fignum_exists(figure.number)  # a notebook shows it once, where returned
    figure.canvas.draw()
    (axes,) = figure.axes
    legend = axes.get_legend().get_window_extent()
    assert not legend.overlaps(axes.get_window_extent())  # it covers no point
    assert axes.get_xlabel() == "x.shape[0]"
    figure.savefig(tmp_path / "sweep.png")
    assert (tmp_path / "sweep.png").stat().st_size > 1000
    data = result.plot_data()
    assert len(data["x"]) == 64 and data["recompiled"].count(True) == 1


def test_sweep_grid_and_sample() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(8, 4), 3)
    result = s.sweep(compiled, x=[(4, 4), (50, 4)], n=[3, 5], grid=True, run=2, progress=False)
    assert [row["x"] for row in result.rows] == [4, 4, 50, 50]
    assert sum("actual" in row for row in result.rows) == 2
    only_predicted = s.sweep(compiled, x=[(6, 4), (60, 4)], n=[3, 3], run=False, progress=False)
    first, second = (row["predicted"] for row in only_predicted.rows)
    assert first == "0/0"
    assert second == s.predict((60, 4), 3).entry  # the 0/1 entry if the sample compiled one
    assert all("actual" not in row for row in only_predicted.rows)


def test_sweep_rejects_unequal_lists() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(8, 4), 3)
    with pytest.raises(ValueError):
        s.sweep(compiled, x=[(4, 4), (6, 4)], n=[3], progress=False)


def test_sweep_lanes_order_ids_of_every_generation() -> None:
    """A sweep after ``torch._dynamo.reset()`` names entries ``0/1@1``: they sort, not raise."""
    from symdebug.live.sweep_plot import _lanes

    data = {"predicted": ["0/1@1", None, "0/0"], "actual": ["0/0@1", "0/10", "0/2"]}
    assert list(_lanes(data)) == ["0/0", "0/2", "0/10", "0/0@1", "0/1@1"]


WITHOUT_MATPLOTLIB = """
import sys
sys.modules["matplotlib"] = None  # as if the plot extra were not installed
import torch, symdebug
def f(x):
    return x * 2
with symdebug.capture() as s:
    compiled = torch.compile(f, backend="eager", dynamic=True)
    compiled(torch.randn(8))
result = s.sweep(compiled, x=[(4,), (5,)], progress=False)
try:
    result.plot()
except ImportError as error:
    print("said:", error)
print("rows kept:", len(result.rows))
"""


def test_a_plot_without_the_extra_names_it_and_keeps_the_rows() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_MATPLOTLIB], capture_output=True, text=True, timeout=300,
        check=True,
    )  # fmt: skip
    assert "said: a sweep's plot needs matplotlib: pip install 'symdebug[plot]'" in done.stdout
    assert "rows kept: 2" in done.stdout

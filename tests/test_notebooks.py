"""Tutorial notebooks run top to bottom in a real kernel, and show what they claim."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from symdebug.renderers.notebook import MIME_TYPE

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def run(name: str) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    ).execute()
    return notebook


def outputs(cell: nbformat.NotebookNode) -> list[dict]:
    return [dict(o) for o in cell.get("outputs", [])]


def text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in outputs(cell))


def displayed(cell: nbformat.NotebookNode) -> dict:
    """The session document a cell displayed."""
    return next(
        o["data"][MIME_TYPE] for o in outputs(cell) if o.get("output_type") == "display_data"
    )


@pytest.mark.slow
def test_quickstart() -> None:
    notebook = run("01-quickstart.ipynb")
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert "capturing" in text(cells[0])
    document = displayed(cells[2])
    assert document["recompiles"] and document["recompiles"][0]["cause"] == "static_by_default"
    assert document["guards"] == [] or all(
        g["user_stack"] == [] or g["user_stack"][-1]["filename"].startswith("Cell [")
        for g in document["guards"]
    )
    why = text(cells[3])
    assert "L['x'].size()[0]" in why and "recompiles: 1 ['static_by_default']" in why
    fixed = displayed(cells[4])
    assert fixed["recompiles"] == [] and len(fixed["compiles"]) == 1  # the fix: no recompile
    predictions = text(cells[5]).split("score_fixed:")
    assert "score: served by 0/1" in predictions[0]  # the dynamic entry serves batch 64
    assert "served by" in predictions[1]

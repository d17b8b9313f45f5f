"""Notebook lines are named as cells, by the number each had when it ran (issue 46, point 22).

A real kernel (ipykernel) compiles a cell to a temporary file named by a hash of its text,
so a second Run All keeps the files and gives them new numbers.  Every answer names the
cell: never the temporary path, and the first run's definition keeps its first number.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

CELLS = [
    "%load_ext symdebug",
    "import torch\n"
    "def score(x):\n"
    "    if x.shape[0] > 4:\n"
    "        return x * 2\n"
    "    return x + 1\n"
    "cs = torch.compile(score, backend='eager')",
    "cs(torch.randn(8)); cs(torch.randn(3)); cs(torch.randn(2))",
    "s = get_ipython().magics_manager.registry['SymdebugMagics'].session\n"
    "print(s)\n"
    "print(s.why('x', 0))\n"
    "s.save('doc.json')",
]


def _run_all_twice(folder: Path) -> list[str]:
    """What the last cell printed after each Run All (the extension loaded once).

    The last cell saves the session to ``folder/doc.json``, the kernel's working folder.
    """
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = NotebookClient(notebook, timeout=600, kernel_name="python3")
    client.resources = {"metadata": {"path": str(folder)}}
    printed = []
    with client.setup_kernel():
        for first in (0, 1):
            for index, cell in enumerate(notebook.cells[first:], first):
                client.execute_cell(cell, index)
            printed.append("".join(o.get("text", "") for o in notebook.cells[-1].outputs))
    return printed


def test_each_definition_keeps_the_cell_number_it_ran_under(tmp_path: Path) -> None:
    first, second = _run_all_twice(tmp_path)
    document = (tmp_path / "doc.json").read_text()
    for text in (first, second, document):
        assert "ipykernel" not in text  # no temporary path, in the text or the document
    assert "frame score (Cell [2]:2)" in first and "at Cell [2]:3" in first
    # The second run's cells are 5 to 7 (the extension's cell is not run again).
    assert "frame score (Cell [2]:2)" in second and "frame score (Cell [5]:2)" in second
    assert "at Cell [5]:3" in second and "# Cell [5]:3 in score" in second  # torch's reason
    assert "older definition score (frame 0, Cell [2]:2)" in second  # as the dropdown says
    compiles = json.loads(document)["compiles"]
    assert [(c["compile_id"], c["filename"]) for c in compiles] == [
        ("0/0", "Cell [2]"),
        ("0/1", "Cell [2]"),
        ("1/0", "Cell [5]"),
        ("1/1", "Cell [5]"),
    ]

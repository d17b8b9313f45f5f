"""A diff of two runs in a real JupyterLab and Debian's Chromium: a cell whose value displays
the diff's MIME bundle is executed in a real kernel and saved; JupyterLab, with no kernel able
to start, shows the saved output as the diff viewer (not the ``text/html`` iframe fallback),
and a user line in the diff opens its file at the line.

How JupyterLab is started and stopped is ``test_jupyterlab.py``'s (its own extension dir,
no network, no kernels).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from test_jupyterlab import WAIT_MS, Lab, _serve, kernelless_page
from view_samples import HOSTILE

from symdebug.model.diff_types import DIFF_MIME_TYPE

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
TESTS = Path(__file__).resolve().parents[1]
SHOTS = TESTS.parent / "out" / "screenshots"

TRAIN_PY = "def train_step(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x\n"
#: The cell that shows a hand-built diff with hostile strings, through the diff's bundle.
DIFF_CELL = f"""import os, sys
sys.path.insert(0, {str(TESTS)!r})
import symdebug.renderers.diff_notebook as d
from symdebug.model.types import Frame
from view_samples import regressed_diff

line = Frame(os.path.abspath("train.py"), 2, "train_step", "    for _ in range(n):")
facts = regressed_diff(line)

class Shown:
    def _repr_mimebundle_(self, include=None, exclude=None):
        return d.diff_mime_bundle(facts, "the diff as text")

Shown()"""


#: The cell a user writes: two real runs captured in the kernel, then ``symdebug.diff``.
REAL_DIFF_CELL = """import torch, symdebug

def step(x):
    return x * 2

def run(sizes):
    torch._dynamo.reset()
    with symdebug.capture() as session:
        compiled = torch.compile(step, backend="eager")
        for rows in sizes:
            compiled(torch.ones(rows))
    return session

before, after = run([4]), run([4, 5, 6])
symdebug.diff(before, after)"""


def _saved_notebook(root: Path, name: str, cell: str) -> Path:
    """Run the cell in a real kernel and save the notebook with its output."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(root)}}).execute()
    path = root / name
    nbformat.write(notebook, path)
    return path


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("diff-notebook")
    (root / "train.py").write_text(TRAIN_PY)
    _saved_notebook(root, "diff.ipynb", DIFF_CELL)
    _saved_notebook(root, "real-diff.ipynb", REAL_DIFF_CELL)
    yield from _serve(tmp_path_factory, root, kernels=False)


@pytest.fixture(scope="module")
def page(browser, lab: Lab):  # type: ignore[no-untyped-def]
    page = kernelless_page(browser, lab, "diff.ipynb", ".jp-SymdebugDiffOutput .sd header")
    yield page
    page.close()


def test_saved_diff_output_is_the_diff_viewer(page, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    saved = nbformat.read(lab.root / "diff.ipynb", as_version=4)
    (output,) = saved.cells[0].outputs
    assert {DIFF_MIME_TYPE, "text/html", "text/plain"} <= set(output["data"])
    view = page.locator(".jp-SymdebugDiffOutput")
    expect(view).to_have_count(1)
    expect(view.locator(".sd[data-view=diff]")).to_have_count(1)
    assert page.locator(".jp-OutputArea-output iframe").count() == 0  # not the HTML fallback
    expect(view.locator("[data-diff-header] .verdict")).to_have_text("REGRESSED")
    expect(view.locator("[data-label=before]")).to_have_text(f"runs/before{HOSTILE}")
    rank0 = view.locator("section[data-run='0']")
    expect(rank0.locator("tr[data-frame-row]")).to_have_count(4)
    rank0.locator("th[data-col=compiles_after]").click()
    expect(rank0.locator("tr[data-frame-row]").first).to_have_attribute("data-frame-row", "3")
    rank0.locator("tr[data-regressed=true]").click()
    detail = rank0.locator("[data-frame-detail='0']")
    expect(detail.locator("[data-item-kind=recompile] [data-item-text]")).to_have_text("n == 3")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "jupyterlab-diff.png"))
    assert page.evaluate("window.pwned") is None
    assert not page.errors


def test_a_user_line_of_the_diff_opens_its_file_at_the_line(page) -> None:  # type: ignore[no-untyped-def]
    rank0 = page.locator(".jp-SymdebugDiffOutput section[data-run='0']")
    rank0.locator("tr[data-regressed=true]").click()
    recompile = rank0.locator("[data-frame-detail='0'] [data-item-kind=recompile]")
    recompile.locator("button.frame-link[data-frame$='train.py:2']").click()
    expect(page.locator(".jp-FileEditor .cm-content")).to_contain_text("def train_step(x, n)")
    expect(page.locator("#jp-main-statusbar").get_by_text("Ln 2, Col 1")).to_be_visible()
    assert not page.errors


def test_symdebug_diff_of_two_real_runs_renders_as_the_diff_viewer(browser, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    try:
        page.set_default_timeout(WAIT_MS)
        # A workspace of its own: the other tests' saved layout would open over this notebook.
        workspace = f"{lab.url}/lab/workspaces/real-diff/tree/real-diff.ipynb"
        page.goto(f"{workspace}?reset&token={lab.token}")
        view = page.locator(".jp-SymdebugDiffOutput")
        view.locator(".sd header").first.wait_for()
        expect(view.locator("[data-diff-header] .verdict")).to_have_text("REGRESSED")
        row = view.locator("tr[data-regressed=true]")
        expect(row).to_have_count(1)
        expect(row.locator("td[data-col=compiles_before]")).to_have_text("1")
        expect(row.locator("td[data-col=compiles_after]")).to_have_text("2")
        assert page.locator(".jp-OutputArea-output iframe").count() == 0
    finally:
        page.close()

"""The JupyterLab extension in a real JupyterLab and Debian's Chromium.

A notebook is executed once (nbclient, a real kernel) and saved with its symdebug output.
JupyterLab then serves it on localhost with no kernel able to start, and the saved output must
come back as the interactive viewer; clicking a frame in a cell activates that cell, a frame in
a file opens the file at its line, and the command palette exports the output as a report.

A second JupyterLab, with kernels, runs a notebook in the page: the explorer of ``%symdebug``
runs the compiled function, a ``%%symdebug`` cell's frames link to that cell, and once saved
and reopened under a new kernel the explorer's output is the report (its widget model is gone).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from symdebug.renderers.notebook import MIME_TYPE

expect = pytest.importorskip("playwright.sync_api").expect
pytest.importorskip("jupyterlab")
REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "out" / "screenshots"
# Generous: the machine may be shared and loaded.  Every wait is for a real state of the page
# (text in an editor, a row in a table), never for a fixed time.
STARTUP_S = 300
WAIT_MS = 120_000
expect.set_options(timeout=WAIT_MS)

SHAPES_PY = """def head(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1
"""
CELLS = [
    "%load_ext symdebug\nimport torch\nfrom shapes import head",
    "def f(x):\n    y = x.view(-1, 2)\n    return head(y)",
    '%%symdebug\ncf = torch.compile(f, backend="eager", dynamic=True)\ncf(torch.randn(16))',
    # Graph breaks, unbacked symbols and torch.export, from the test programs' workloads.
    "%%symdebug\nimport graph_breaks, unbacked, export_dim\n"
    "graph_breaks.workload(); unbacked.workload(); export_dim.workload()",
]
#: The programs the last cell runs, copied next to the notebook.
PROGRAMS = Path(__file__).resolve().parents[1] / "data" / "programs"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MECHANISMS = ("graph_breaks.py", "unbacked.py", "export_dim.py")


@dataclass(frozen=True)
class Lab:
    """A JupyterLab server of this test: where it serves, its token and its root folder."""

    url: str
    token: str
    root: Path

    def api(self, path: str, method: str = "GET") -> object:
        request = urllib.request.Request(
            f"{self.url}{path}", headers={"Authorization": f"token {self.token}"}, method=method
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None


def _saved_notebook(root: Path) -> Path:
    """Run the notebook in a real kernel and save it with its outputs."""
    (root / "shapes.py").write_text(SHAPES_PY)
    for name in MECHANISMS:
        shutil.copy(PROGRAMS / name, root / name)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(root)}}).execute()
    path = root / "saved.ipynb"
    nbformat.write(notebook, path)
    return path


def _isolated_jupyter(base: Path, kernels: bool = False) -> dict[str, str]:
    """Jupyter dirs of the test's own: the extension as pip installs it, and no kernels
    (unless ``kernels``: then the environment's own Python kernel)."""
    data, config = base / "data", base / "config"
    extension = data / "labextensions" / "symdebug"
    shutil.copytree(REPO / "symdebug" / "labextension", extension)
    shutil.copy(REPO / "extension" / "install.json", extension)
    config.mkdir()
    if not kernels:
        no_kernels = {"KernelSpecManager": {"allowed_kernelspecs": ["no-such-kernel"]}}
        (config / "jupyter_server_config.json").write_text(json.dumps(no_kernels))
    # No news and no update check: nothing leaves localhost.
    settings = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    if kernels:  # a notebook starts the kernel it names, without asking
        tracker = config / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
        tracker.mkdir(parents=True)
        (tracker / "tracker.jupyterlab-settings").write_text('{"autoStartDefaultKernel": true}')
    return {
        "JUPYTER_DATA_DIR": str(data),
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        # In a virtual environment Jupyter reads its share/ before JUPYTER_DATA_DIR, and `make
        # setup` links the checkout's build there: the copy above must come first.
        "JUPYTER_PREFER_ENV_PATH": "0",
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(lab: Lab, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        assert server.poll() is None, f"JupyterLab exited while starting:\n{log.read_text()}"
        try:
            lab.api("/api/status")
        except OSError:
            time.sleep(0.5)
        else:
            return
    pytest.fail(f"JupyterLab did not answer within {STARTUP_S} s:\n{log.read_text()}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server and all it started (its own process group), whatever state it is in:
    ask, wait, then kill what is left of the group.  A few seconds: a server that stops at
    all stops in one, and one with a page still connected waited out 30 s (test_jupyterlab_diff)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("notebooks")
    _saved_notebook(root)
    yield from _serve(tmp_path_factory, root, kernels=False)


def _serve(factory: pytest.TempPathFactory, root: Path, kernels: bool) -> Iterator[Lab]:
    """JupyterLab on ``root`` until the generator is closed; then it and all it started stop."""
    # The token reaches the server through its environment, never a command line.
    token = secrets.token_hex(24)
    env = {**os.environ, **_isolated_jupyter(factory.mktemp("jupyter"), kernels)}
    env["JUPYTER_TOKEN"] = token
    port = _free_port()
    args = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", f"--ServerApp.root_dir={root}"]
    args.append("--allow-root")  # CI and this sandbox run as root
    args.append("--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    log = root.parent / "jupyterlab.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", *args],
            env=env,
            stdout=sink,
            stderr=sink,
            start_new_session=True,  # a group of its own: stopping it stops all it started
        )
    try:
        lab = Lab(f"http://127.0.0.1:{port}", token, root)
        _wait_until_up(lab, server, log)
        yield lab
    finally:
        _stop(server)


def kernelless_page(browser, lab: Lab, notebook: str, ready: str):  # type: ignore[no-untyped-def]
    """The saved notebook opened in a lab where no kernel can start, once ``ready`` shows.

    JupyterLab asks for a kernel ("Select Kernel"), a moment before or after the outputs
    render; there is none to start, so the question is declined.  ``page.errors`` collects
    the page's script errors.
    """
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{lab.url}/lab/tree/{notebook}?token={lab.token}")
    page.locator(ready).first.wait_for()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for()
    dialog.locator(".jp-mod-reject").first.click()
    dialog.wait_for(state="detached")
    page.errors = errors
    return page


@pytest.fixture(scope="module")
def page(browser, lab: Lab):  # type: ignore[no-untyped-def]
    page = kernelless_page(browser, lab, "saved.ipynb", ".jp-SymdebugOutput .sd header")
    yield page
    page.close()


def test_saved_output_is_the_interactive_viewer_without_a_kernel(page, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    assert lab.api("/api/kernels") == []
    saved = nbformat.read(lab.root / "saved.ipynb", as_version=4)
    assert any(MIME_TYPE in o.get("data", {}) for o in saved.cells[2].outputs)
    expect(page.locator(".jp-SymdebugOutput")).to_have_count(2)
    view = page.locator(".jp-SymdebugOutput").first
    assert page.locator(".jp-SymdebugOutput iframe").count() == 0  # not the HTML fallback
    view.locator("[data-tab=guards]").click()
    rows = view.locator("tr[data-guard]")
    expect(rows.nth(1)).to_be_visible()  # two guards or more
    view.locator("select[aria-label=cause]").select_option("user_branch")
    expect(rows.first).to_contain_text("user_branch")
    view.locator("select[aria-label=cause]").select_option("")
    expect(rows.nth(1)).to_be_visible()
    rows.last.click()
    expect(view.locator("[data-detail]")).to_contain_text("user stack")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "jupyterlab.png"))
    assert page.url.endswith("saved.ipynb?token=" + lab.token) or "#" not in page.url
    assert not page.errors


def test_graph_breaks_unbacked_symbols_and_exports_render(page) -> None:  # type: ignore[no-untyped-def]
    view = page.locator(".jp-SymdebugOutput").nth(1)
    view.locator("[data-tab=overview]").click()
    breaks = view.locator(".graph-break")
    expect(breaks.first).to_contain_text("graph break")
    expect(view).to_contain_text("lost dynamism")
    expect(view).to_contain_text("data-dependent: torch could not decide")
    expect(view.locator("h3", has_text="torch.export.")).to_have_count(2)
    expect(view.locator(".export-error").first).to_contain_text("Constraints violated (T)!")
    view.locator("[data-tab=symbols]").click()
    expect(view.locator("table")).to_contain_text("the result of .item()")
    expect(view.locator("table")).to_contain_text("unbacked")
    assert not page.errors


def _active_cell_editor(page):  # type: ignore[no-untyped-def]
    return page.locator(".jp-Notebook .jp-Cell.jp-mod-active .jp-InputArea-editor")


def test_clicking_a_cell_frame_activates_that_cell(page) -> None:  # type: ignore[no-untyped-def]
    page.locator(".jp-Notebook .jp-Cell").first.click()
    expect(_active_cell_editor(page)).to_contain_text("load_ext")
    view = page.locator(".jp-SymdebugOutput").first
    view.locator("[data-tab=guards]").click()
    link = view.locator("button.frame-link[data-frame^='Cell [2]']").first
    link.click()  # Playwright waits until the link is there and can be clicked
    expect(_active_cell_editor(page)).to_contain_text("def f(x)")
    expect(_active_cell_editor(page)).to_contain_text("y = x.view(-1, 2)")


def test_clicking_a_file_frame_opens_the_file_at_its_line(page) -> None:  # type: ignore[no-untyped-def]
    view = page.locator(".jp-SymdebugOutput").first
    view.locator("[data-tab=guards]").click()
    link = view.locator("button.frame-link[data-frame$='shapes.py:2']").first
    link.click()
    # The editor is there before the file's text is: wait for the text itself.
    expect(page.locator(".jp-FileEditor .cm-content")).to_contain_text("def head(x)")
    # The status bar shows where the editor's cursor is.
    expect(page.locator("#jp-main-statusbar").get_by_text("Ln 2, Col 1")).to_be_visible()
    page.locator(".lm-TabBar-tab", has_text="saved.ipynb").first.click()
    expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible()


def test_command_palette_exports_the_selected_output(page, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-InputPrompt").click()
    page.keyboard.press("Control+Shift+c")
    palette = page.locator(".lm-CommandPalette-input")
    palette.fill("symdebug: export")  # fill waits until the palette's input is there
    page.locator(".lm-CommandPalette-item", has_text="Export Selected Output").first.click()
    html = _exported(lab).read_text()
    assert html.startswith("<!doctype html>") and 'id="symdebug-data"' in html
    assert "Content-Security-Policy" in html and "Cell [2]" in html


def test_context_menu_of_the_output_exports_it(page, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    before = _reports(lab)
    page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-InputPrompt").click()
    page.locator(".jp-SymdebugOutput header").first.click(button="right")
    page.locator(".lm-Menu-item", has_text="Export Selected Output").click()
    assert "Cell [2]" in _exported(lab, before).read_text()


LIVE_CELLS = [
    "%load_ext symdebug\nimport torch",
    "def f(x):\n    if x.shape[0] > 4:\n        return x * 2\n    return x + 1\n"
    'cf = torch.compile(f, backend="eager", dynamic=True)\ncf(torch.randn(8)); cf(torch.randn(3))',
    "%%symdebug\ndef g(x):\n    return x.view(-1, 2).sum(0)\n"
    'cg = torch.compile(g, backend="eager")\ncg(torch.randn(8)); cg(torch.randn(6))',
    "%symdebug",
    'def h(x):\n    return x - 1\ntorch.compile(h, backend="eager")(torch.randn(4))',
]


def _shut_down_kernels(lab: Lab) -> None:
    """End every session and kernel of the server, and wait until none is left."""
    for session in lab.api("/api/sessions") or []:  # type: ignore[union-attr]
        lab.api(f"/api/sessions/{session['id']}", method="DELETE")
    for kernel in lab.api("/api/kernels") or []:  # type: ignore[union-attr]
        lab.api(f"/api/kernels/{kernel['id']}", method="DELETE")
    deadline = time.monotonic() + WAIT_MS / 1000
    while lab.api("/api/kernels") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert lab.api("/api/kernels") == [], "the kernels did not stop"


@pytest.fixture(scope="module")
def live_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab with the environment's Python kernel, serving an unrun notebook."""
    root = tmp_path_factory.mktemp("live")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in LIVE_CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, root / "live.ipynb")
    served = _serve(tmp_path_factory, root, kernels=True)
    lab = next(served)
    try:
        yield lab
    finally:
        with contextlib.suppress(OSError, AssertionError):
            _shut_down_kernels(lab)  # before the server: a kernel runs in a session of its own
        served.close()


def _open_live(browser, lab: Lab):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{lab.url}/lab/tree/live.ipynb?token={lab.token}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    # The kernel is up when the status bar names it idle.
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Python 3 (ipykernel) | Idle")
    return page


def _cell(page, index: int):  # type: ignore[no-untyped-def]
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


@pytest.fixture(scope="module")
def live_page(browser, live_lab: Lab):  # type: ignore[no-untyped-def]
    """The notebook run top to bottom in the page (Shift+Enter in each cell), in a new kernel."""
    page = _open_live(browser, live_lab)
    _run_every_cell(page)
    yield page
    page.close()


def _run_every_cell(page) -> None:  # type: ignore[no-untyped-def]
    for index in range(len(LIVE_CELLS)):
        prompt = _cell(page, index).locator(".jp-InputArea-prompt")
        prompt.click()
        page.keyboard.press("Shift+Enter")
        expect(prompt).to_have_text(f"[{index + 1}]:")  # run, and numbered as JupyterLab shows
    # The explorer's widget: its model lives in this kernel.
    _cell(page, 3).locator(".jp-SymdebugOutput[data-widget=live]").wait_for()


def test_run_from_the_line_magic_explorer(live_page) -> None:  # type: ignore[no-untyped-def]
    view = _cell(live_page, 3).locator(".jp-SymdebugOutput")
    view.locator("select[aria-label=frame]").select_option("f")
    view.locator("input[aria-label=sizes]").fill("[[2]]")
    view.locator("button[data-action=run]").click()
    expect(view.locator("[data-results]")).to_contain_text("[1] run: served by 0/1")
    expect(view.locator("[data-results]")).to_contain_text("prediction held")
    expect(view.locator("[data-error]")).to_have_text("")
    assert not live_page.errors


def test_a_later_cell_reaches_the_explorer_as_a_patch(live_page) -> None:  # type: ignore[no-untyped-def]
    view = _cell(live_page, 3).locator(".jp-SymdebugOutput")
    expect(view.locator("select[aria-label=frame] option[value=h]")).to_have_count(1)
    shown = view.locator("[data-patches]")
    patches, revision = shown.get_attribute("data-patches"), shown.get_attribute("data-revision")
    # Every change since the view drew the document came as a patch (a Run before adds one).
    assert patches is not None and int(patches) >= 1 and patches == revision
    assert not live_page.errors


def test_frame_link_of_a_cell_magic_activates_its_cell(live_page) -> None:  # type: ignore[no-untyped-def]
    _cell(live_page, 0).locator(".jp-InputPrompt").click()
    expect(_active_cell_editor(live_page)).to_contain_text("load_ext")
    view = _cell(live_page, 2).locator(".jp-SymdebugOutput")
    view.locator("[data-tab=guards]").click()
    expect(_cell(live_page, 2).locator(".jp-InputPrompt")).to_contain_text("[3]")
    view.locator("button.frame-link[data-frame^='Cell [3]']").first.click()
    expect(_active_cell_editor(live_page)).to_contain_text("def g(x)")
    expect(_cell(live_page, 2)).to_have_class(re.compile(r"\bjp-mod-active\b"))  # not the next
    # The line the editor numbers (the %%symdebug line is line 1): the guard's view.
    expect(live_page.locator("#jp-main-statusbar").get_by_text("Ln 3, Col 1")).to_be_visible()


def test_frame_links_of_the_live_explorer_open_their_cell(live_page) -> None:  # type: ignore[no-untyped-def]
    _cell(live_page, 0).locator(".jp-InputPrompt").click()
    expect(_active_cell_editor(live_page)).to_contain_text("load_ext")
    # The widget's view (the report under it stays hidden while the widget lives).
    view = _cell(live_page, 3).locator(".jp-SymdebugOutput[data-widget=live] .sd:visible")
    view.locator("[data-tab=guards]").click()
    view.locator("button.frame-link[data-frame='Cell [2]:2']").first.click()  # a button, as saved
    expect(_active_cell_editor(live_page)).to_contain_text("def f(x)")
    expect(live_page.locator("#jp-main-statusbar").get_by_text("Ln 2, Col 1")).to_be_visible()
    assert not live_page.errors


def test_saved_notebook_reopens_with_the_report_under_a_new_kernel(  # type: ignore[no-untyped-def]
    live_page, browser, live_lab: Lab
) -> None:
    _cell(live_page, 0).locator(".jp-InputPrompt").click()
    live_page.keyboard.press("Control+s")
    saved = _saved_with_widget(live_lab.root / "live.ipynb")
    assert MIME_TYPE in saved.cells[3].outputs[0]["data"]
    live_page.close()
    _shut_down_kernels(live_lab)  # the explorer's model goes with its kernel
    page = _open_live(browser, live_lab)
    try:
        output = _cell(page, 3).locator(".jp-SymdebugOutput")
        # Trusted (JupyterLab signed it on save), under a kernel that never made the widget.
        expect(output).to_have_attribute("data-widget", "gone")
        assert live_lab.api("/api/kernels")  # reopened with a kernel
        view = output.locator(".sd").first
        expect(view.locator("header")).to_be_visible()
        view.locator("[data-tab=guards]").click()
        expect(view.locator("tr[data-guard]").first).to_be_visible()
        expect(page.get_by_text("Error displaying widget")).to_have_count(0)
        assert not page.errors
    finally:
        page.close()


def _saved_with_widget(path: Path) -> nbformat.NotebookNode:
    """The notebook on disk once the server has saved the explorer's output in it."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        with contextlib.suppress(ValueError, OSError, nbformat.reader.NotJSONError):
            notebook = nbformat.read(path, as_version=4)
            outputs = notebook.cells[3].get("outputs", [])
            if outputs and WIDGET_VIEW in outputs[0].get("data", {}):
                return notebook
        time.sleep(0.2)
    pytest.fail(f"{path} was not saved with the explorer's output")


def _reports(lab: Lab) -> dict[Path, int]:
    """The exported reports in the served folder, with the time each was last written."""
    return {p: p.stat().st_mtime_ns for p in lab.root.glob("saved-symdebug-*.html")}


def _exported(lab: Lab, before: dict[Path, int] | None = None) -> Path:
    """The report written since ``before`` was listed, once the server has written all of it.

    Earlier reports stay: deleting a file from the served folder while JupyterLab's file
    browser lists it makes the listing fail ("Directory not found"), and a dialog then covers
    the page.
    """
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        found = [p for p, t in _reports(lab).items() if (before or {}).get(p) != t]
        if found and found[0].read_text().rstrip().endswith("</html>"):
            (report,) = found
            return report
        time.sleep(0.2)
    pytest.fail(f"no complete report was exported into {lab.root}")


def _menu(page, menu: str, item: str) -> None:  # type: ignore[no-untyped-def]
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def test_shutting_the_explorers_kernel_down_raises_no_page_error(  # type: ignore[no-untyped-def]
    browser, live_lab: Lab
) -> None:
    """Issue 32: the kernel of a notebook with a live explorer shut down, then the notebook.

    The error the issue reports ("reading 'observe'") is raised by JupyterLab 4.6's
    content-visibility listener (it dereferences an observer that detaching nulled), never
    by symdebug's bundles; this test holds the page free of errors on both paths it can reach.
    """
    page = _open_live(browser, live_lab)
    try:
        _run_every_cell(page)
        _menu(page, "Kernel", "Shut Down Kernel")
        expect(page.locator("#jp-main-statusbar")).to_contain_text("No Kernel")
        _cell(page, 0).locator(".jp-InputPrompt").click()  # the page still answers
        _menu(page, "File", "Close and Shut Down Notebook")
        page.locator(".jp-Dialog .jp-mod-accept").click()
        expect(page.locator(".jp-Notebook")).to_have_count(0)
        # Work the closing scheduled (JupyterLab's listeners run in animation frames) is done.
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        assert not page.errors
    finally:
        page.close()

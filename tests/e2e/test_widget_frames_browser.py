"""The explorer widget's frame links in a real browser (Debian's Chromium via Playwright).

In JupyterLab the extension marks the page and opens the frames the widget asks for, so the
explorer's frame links are buttons, as in a saved output; a page without the extension keeps
them as text.  The JupyterLab test clicks one in a live notebook.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
import torch
from test_report_browser import WAIT_MS, WIDGET_PAGE

import symdebug
from symdebug.renderers.html import safe_json

expect = pytest.importorskip("playwright.sync_api").expect

#: What symdebug's JupyterLab extension does on start (extension/src/frame_event.ts).
EXTENSION = """<script>
document.documentElement.setAttribute("data-symdebug-opens-frames", "");
window.opened = [];
document.addEventListener("symdebug-open-frame", (e) => window.opened.push(e.detail));
</script>"""


def branch(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def widget_page(browser, root: Path, extension: bool):  # type: ignore[no-untyped-def]
    """The widget module on a page with a fake model, with or without the extension."""
    torch._dynamo.reset()
    with symdebug.capture() as session:
        compiled = torch.compile(branch, backend="eager", dynamic=True)
        compiled(torch.randn(8))
        compiled(torch.randn(3))
    code = resources.files("symdebug").joinpath("_static/widget.mjs").read_text()
    code = re.sub(r"export\s*\{([^}]*)\};?", _default_only, code)
    text = WIDGET_PAGE.replace("@@DATA@@", safe_json(session.to_json())).replace("@@MODULE@@", code)
    if extension:
        text = text.replace("<body>", f"<body>{EXTENSION}", 1)
    (root / "widget.html").write_text(text)
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto((root / "widget.html").as_uri())
    page.wait_for_function("window.ready === true")
    return page


def _default_only(match: re.Match[str]) -> str:
    """The module's exports inlined (a file:// page imports no module): its default a name."""
    default = re.search(r"(\w+) as default", match.group(1))
    return f"const __widget = {default.group(1)};" if default else ""


def test_frame_links_of_the_explorer_are_buttons_that_ask_the_page(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = widget_page(browser, tmp_path, extension=True)
    try:
        line = branch.__code__.co_firstlineno + 1  # the branch on the size
        page.click("[data-tab=guards]")
        link = page.locator(f"button.frame-link[data-frame$='.py:{line}']").first
        expect(link).to_be_visible()
        link.click()
        page.wait_for_function("window.opened.length === 1")
        opened = page.evaluate("window.opened[0]")
        assert opened["filename"].endswith("test_widget_frames_browser.py")
        assert opened["lineno"] == line and opened["line"] == "if x.shape[0] > 4:"
        assert page.errors == []
    finally:
        page.close()


def test_without_the_extension_frame_links_stay_text(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = widget_page(browser, tmp_path, extension=False)
    try:
        page.click("[data-tab=guards]")
        expect(page.locator("tr.row").first).to_be_visible()
        expect(page.locator("button.frame-link")).to_have_count(0)
        assert page.errors == []
    finally:
        page.close()

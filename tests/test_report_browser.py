"""The HTML report in a real browser (Debian's Chromium, driven by Playwright): panes,
filters, guard detail, why, deep links; hostile strings stay text; no network access."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import quote

import pytest
import torch
from scenarios import capture_branch_and_view  # tests/ is on sys.path

import symdebug

pytest.importorskip("playwright.sync_api")
SHOTS = Path(__file__).resolve().parents[1] / "out" / "screenshots"
HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def open_report(browser, path: Path, fragment: str = ""):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector(".sd header")
    page.requests, page.errors = requests, errors  # type: ignore[attr-defined]
    return page


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    s, compiled = capture_branch_and_view()
    sizes = [(n,) for n in range(2, 14, 2)]
    s.sweep(compiled, sizes, [(10,)] * len(sizes), progress=False)
    return s.to_html(tmp_path_factory.mktemp("report") / "report.html")


def test_overview_guards_detail_why_and_deep_link(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_report(browser, report)
    assert "recompiles" in page.inner_text("header")
    assert page.locator(".compile").count() == 3  # 0/0, 0/1 and the sweep's recompile
    page.screenshot(path=str(SHOTS / "overview.png"))
    page.click("[data-tab=guards]")
    total = page.locator("tr.row").count()
    page.select_option("select[aria-label=cause]", "user_branch")
    assert page.locator("tr.row").count() < total
    assert page.locator("tr.row").first.inner_text().count("user_branch") == 1
    page.locator("tr.row").first.click()
    detail = page.inner_text(".detail")
    assert "# BRANCH" in detail and "control flow" in detail, detail
    page.screenshot(path=str(SHOTS / "guard-detail.png"))
    guard_id = page.get_attribute(".detail [data-detail]", "data-detail")
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[0]")
    steps = page.inner_text(".steps")
    assert "L['x'].size()[0] is " in steps and "recompile 0/1" in steps
    page.screenshot(path=str(SHOTS / "why.png"))
    linked = open_report(browser, report, f"#guard={quote(guard_id, safe='')}")
    assert linked.get_attribute(".detail [data-detail]", "data-detail") == guard_id
    assert linked.errors == [] and page.errors == []
    assert all(url.startswith("file://") for url in page.requests + linked.requests)


def test_sizes_pane_draws_the_sweep(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=sizes]")
    assert page.locator("svg[data-chart=sweep] circle").count() == 6
    assert "6 sizes of L['x'].size()[0]" in page.inner_text("[data-pane=sizes]")
    page.screenshot(path=str(SHOTS / "sizes.png"))


def test_kernels_pane_highlights_symbols(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=kernels]")
    page.locator("details summary").first.click()
    assert page.locator("pre .sym").count() > 0  # ks0 highlighted as a symbolic size


def hostile_module(root: Path) -> object:
    folder = root / f"a{HOSTILE}"
    folder.mkdir(parents=True)
    path = folder / "evil.py"
    path.write_text(
        f"def f(x):\n    if x.shape[0] > 4:  # {HOSTILE}\n        return x * 2\n    return x + 1\n"
    )
    spec = importlib.util.spec_from_file_location("evil", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def hostile_session(root: Path) -> symdebug.Session:
    """A capture of the hostile function: its file path and line are in every view."""
    module = hostile_module(root)
    torch._dynamo.reset()
    with symdebug.capture() as session:
        compiled = torch.compile(module.f, backend="eager", dynamic=True)  # type: ignore[attr-defined]
        compiled(torch.randn(8))
        compiled(torch.randn(3))
    return session


def test_hostile_strings_render_as_text(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = hostile_session(tmp_path)
    html = s.to_html(tmp_path / "hostile.html").read_text()
    assert HOSTILE not in html  # escaped once, at the HTML boundary
    page = open_report(browser, tmp_path / "hostile.html")
    page.click("[data-tab=guards]")
    page.locator("tr.row").first.click()
    assert HOSTILE in page.inner_text(".detail")  # shown as the text it is
    assert page.evaluate("window.pwned") is None
    assert page.locator("img").count() == 0
    assert page.errors == []
    redacted = s.to_html(tmp_path / "redacted.html", redact=True).read_text()
    assert "onerror" not in redacted and str(tmp_path) not in redacted


WIDGET_PAGE = """<!doctype html><html><body><div id="w"></div>
<script type="application/json" id="data">@@DATA@@</script>
<script type="module">
@@MODULE@@
const listeners = {};
const text = document.getElementById("data").textContent;
const state = { session_json: JSON.parse(text), results: [], error: "" };
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; },
  save_changes: () => { window.sent = state.request; },
  on: (event, cb) => { (listeners[event] = listeners[event] || []).push(cb); },
};
__widget.render({ model, el: document.getElementById("w") });
window.ready = true;
</script></body></html>"""


def test_widget_view_renders_hostile_text(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from importlib import resources

    from symdebug.renderers.html import safe_json

    s = hostile_session(tmp_path)
    code = resources.files("symdebug").joinpath("_static/widget.mjs").read_text()
    # Inline the module (file:// pages cannot import one): its default export becomes a name.
    code = re.sub(r"export\s*\{\s*(\w+) as default\s*\};?", r"const __widget = \1;", code)
    page_text = WIDGET_PAGE.replace("@@DATA@@", safe_json(s.to_json())).replace("@@MODULE@@", code)
    (tmp_path / "widget.html").write_text(page_text)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "widget.html").as_uri())
    page.wait_for_function("window.ready === true")
    page.click("[data-tab=guards]")
    page.locator("tr.row").first.click()
    assert HOSTILE in page.inner_text(".detail")
    assert page.evaluate("window.pwned") is None and errors == []
    page.fill("input[aria-label=sizes]", "[[3]]")
    page.click("[data-action=predict]")
    assert page.evaluate("window.sent.action") == "predict"

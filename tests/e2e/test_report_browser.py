"""The HTML report in a real browser (Debian's Chromium, driven by Playwright): panes,
filters, guard detail, why, deep links; fixes wrap inside their panel, each tab has its own
detail, symbols with their sources, recompiles' causes and fixes, the sizes chart's axes,
legend and tooltip, the demo's report; hostile strings stay text; no network access."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import torch
from scenarios import capture_branch_and_view  # tests/ is on sys.path

import symdebug

expect = pytest.importorskip("playwright.sync_api").expect
# Generous, for a loaded machine: every wait is for a state of the page, never a fixed time.
WAIT_MS = 120_000
expect.set_options(timeout=WAIT_MS)
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
X = "L['x'].size()[0]"
HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def open_report(browser, path: Path, fragment: str = ""):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(WAIT_MS)
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
    expect(page.locator("header")).to_contain_text("recompiles")
    expect(page.locator(".compile")).to_have_count(3)  # 0/0, 0/1 and the sweep's recompile
    page.screenshot(path=str(SHOTS / "overview.png"))
    page.click("[data-tab=guards]")
    rows = page.locator("tr.row")
    expect(rows.first).to_be_visible()
    total = rows.count()
    page.select_option("select[aria-label=cause]", "user_branch")
    page.wait_for_function(f"document.querySelectorAll('tr.row').length < {total}")
    expect(rows.first).to_contain_text("user_branch")
    assert rows.first.inner_text().count("user_branch") == 1
    rows.first.click()
    detail = page.locator(".detail")
    expect(detail).to_contain_text("# BRANCH")
    expect(detail).to_contain_text("control flow")
    page.screenshot(path=str(SHOTS / "guard-detail.png"))
    guard_id = page.get_attribute(".detail [data-detail]", "data-detail")
    assert guard_id
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[0]")
    expect(page.locator(".steps")).to_contain_text("x.shape[0] (L['x'].size()[0]) is ")
    expect(page.locator(".steps")).to_contain_text("recompile 0/1")
    page.screenshot(path=str(SHOTS / "why.png"))
    linked = open_report(browser, report, f"#guard={quote(guard_id, safe='')}")
    expect(linked.locator(".detail [data-detail]")).to_have_attribute("data-detail", guard_id)
    assert linked.errors == [] and page.errors == []
    assert all(url.startswith("file://") for url in page.requests + linked.requests)


def test_sizes_pane_draws_the_sweep(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=sizes]")
    expect(page.locator("svg[data-chart=sweep] [data-point] circle")).to_have_count(6)
    expect(page.locator("[data-pane=sizes]")).to_contain_text("6 sizes of x.shape[0]")
    page.screenshot(path=str(SHOTS / "sizes.png"))


def test_kernels_pane_highlights_symbols(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=kernels]")
    page.locator("details summary").first.click()
    expect(page.locator("pre .sym").first).to_be_visible()  # ks0 highlighted as a symbolic size


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
    expect(page.locator(".detail")).to_contain_text(HOSTILE)  # shown as the text it is
    assert page.evaluate("window.pwned") is None
    expect(page.locator("img")).to_have_count(0)
    page.click("[data-tab=overview]")
    expect(page.locator(".recompile").first).to_contain_text(HOSTILE)  # the failed check's line
    assert page.evaluate("window.pwned") is None
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
    # The bundle may export more than its default (``frameOpener``): keep only the default.
    code = re.sub(r"export\s*\{\s*(\w+) as default\b[^}]*\};?", r"const __widget = \1;", code)
    page_text = WIDGET_PAGE.replace("@@DATA@@", safe_json(s.to_json())).replace("@@MODULE@@", code)
    (tmp_path / "widget.html").write_text(page_text)
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "widget.html").as_uri())
    page.wait_for_function("window.ready === true")
    page.click("[data-tab=guards]")
    page.locator("tr.row").first.click()
    expect(page.locator(".detail")).to_contain_text(HOSTILE)
    assert page.evaluate("window.pwned") is None and errors == []
    page.fill("input[aria-label=sizes]", "[[3]]")
    page.click("[data-action=predict]")
    page.wait_for_function("window.sent !== undefined")
    assert page.evaluate("window.sent.action") == "predict"


def test_fixes_show_code_kind_verification_and_effect(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s, _ = capture_branch_and_view()
    recompile = next(r for r in s.recompiles if r.cause == "user_branch")
    recompile.fixes[0].verified, recompile.fixes[0].effect = True, "f: 3 -> 1 compiles"
    page = open_report(browser, s.to_html(tmp_path / "fixes.html"))
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[0]")
    fix = page.locator(".fixes .fix", has_text=recompile.fixes[0].code)
    expect(fix.locator("pre")).to_have_text(recompile.fixes[0].code)
    expect(fix.locator(".badge")).to_have_text("verified")
    expect(fix).to_contain_text("f: 3 -> 1 compiles")
    expect(fix).to_contain_text(recompile.fixes[0].kind)
    page.click("[data-tab=guards]")
    page.select_option("select[aria-label=cause]", "user_branch")
    page.locator("tr.row").first.click()
    detail = page.locator(".detail .fix").first
    expect(detail.locator("pre")).to_contain_text("torch.cond(")
    expect(detail.locator(".badge")).to_have_text(re.compile("verified|not tried"))
    page.screenshot(path=str(SHOTS / "fixes.png"))
    assert page.errors == []


# A setting that names many inputs: one token of 900 characters, no space to break it at.
LONG_FIX = (
    'torch.compiler.config.dynamic_sources = "'
    + ",".join(f"L['input_{i}']:0" for i in range(60))
    + '"'
)

OVERFLOWING = """(panel) => [panel, ...panel.querySelectorAll('*')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1
    || e.getBoundingClientRect().right > panel.getBoundingClientRect().right + 1)
  .map((e) => e.tagName + '.' + e.className)"""


def long_fix_report(path: Path) -> Path:
    """The branch scenario with its user_branch fix made one long unbreakable line."""
    s, _ = capture_branch_and_view()
    recompile = next(r for r in s.recompiles if r.cause == "user_branch")
    for fix in (
        *recompile.fixes,
        *(f for g in s.guards for f in g.fixes if g.cause == "user_branch"),
    ):
        fix.code = LONG_FIX
    return s.to_html(path)


def test_fix_text_wraps_inside_its_panel(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, long_fix_report(tmp_path / "long.html"))
    page.set_viewport_size({"width": 900, "height": 900})
    page.click("[data-tab=guards]")
    page.select_option("select[aria-label=cause]", "user_branch")
    page.locator("tr.row").first.click()
    detail = page.locator(".detail")
    expect(detail.locator(".fix pre").first).to_have_text(LONG_FIX)
    assert detail.evaluate(OVERFLOWING) == []  # the detail and all in it fit its width
    page.screenshot(path=str(SHOTS / "long-fix.png"))
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[0]")
    fixes = page.locator("[data-pane=why] .fixes")
    expect(fixes.locator("pre", has_text=LONG_FIX)).to_be_visible()
    assert fixes.evaluate(OVERFLOWING) == []
    page.click("[data-tab=overview]")
    recompile = page.locator(".recompile").first
    expect(recompile.locator(".fix pre")).to_have_text(LONG_FIX)
    assert recompile.evaluate(OVERFLOWING) == []
    assert page.errors == []


def test_guard_detail_belongs_to_the_guards_tab(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=guards]")
    page.locator("tr.row").first.click()
    detail = page.locator(".detail [data-detail]")
    expect(detail).to_be_visible()
    guard_id = detail.get_attribute("data-detail")
    for tab in ("overview", "symbols", "why", "kernels", "sizes"):
        page.click(f"[data-tab={tab}]")
        expect(page.locator(f"[data-pane={tab}]")).to_be_visible()
        expect(page.locator(".detail")).to_have_count(0)
        assert page.evaluate("location.hash") == f"#{tab}"
    page.click("[data-tab=guards]")  # the guards tab still has its guard
    expect(detail).to_have_attribute("data-detail", guard_id or "")
    assert page.errors == []


def test_guards_table_shows_each_symbol_with_its_source(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=guards]")
    page.select_option("select[aria-label=cause]", "user_branch")
    row = page.locator("tr.row").first
    guard = re.compile(r"^x\.shape\[0\] ([<>]=?) 4 \(torch: (s\d+) \1 4\)$")
    expect(row.locator("td").nth(1)).to_have_text(guard)  # the user's names, then torch's
    found = guard.match(row.locator("td").nth(1).inner_text())
    assert found, "the guard column says the guard in the user's names"
    symbol = found[2]
    expect(row.locator("[data-symbols]")).to_have_text(f"{symbol} = x.shape[0] ({X})")
    page.select_option("select[aria-label=cause]", "op_requirement")
    two = page.locator("tr.row", has_text="L['y'].size()[0]").first  # ((s77//2)) <= s17
    expect(two.locator("[data-symbols]")).to_contain_text(f"{symbol} = x.shape[0] ({X})")
    expect(two.locator("[data-symbols]")).to_have_text(
        re.compile(r"; s\d+ = y\.shape\[0\] \(L\['y'\]\.size\(\)\[0\]\)$")
    )
    two.click()
    expect(page.locator(".detail .symbols")).to_contain_text(f"{symbol} = x.shape[0] ({X})")
    assert page.errors == []


def test_overview_shows_causes_and_fixes_of_recompiles(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.locator("details.frame-details > summary").first.click()  # the details, folded
    recompile = page.locator(".recompile[data-recompile='0/1']")
    expect(recompile.locator(".cause")).to_have_text("user_branch")
    expect(recompile).to_contain_text(f"inputs: x.shape[0] ({X})")
    expect(recompile.locator(".check")).to_contain_text(
        re.compile(r"failed check x\.shape\[0\] > 4 \(torch: s\d+ > 4\)")
    )
    expect(recompile.locator(".check pre")).to_contain_text("# BRANCH")
    expect(recompile.locator(".fix pre").first).to_contain_text("torch.cond(x.shape[0] > 4")
    expect(recompile.locator(".fix .badge").first).to_have_text("not tried")
    reason = recompile.locator("details.reason")
    expect(reason.locator("pre")).to_be_hidden()  # torch's own text, folded away
    reason.locator("summary").click()
    expect(reason.locator("pre")).to_contain_text("0/0:")
    recompile.locator(".check a.guard").click()  # the failed check opens in the guards tab
    expect(page.locator(".detail [data-detail]")).to_contain_text("user_branch")
    assert page.errors == []


def test_sizes_chart_has_axes_legend_and_tooltip(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=sizes]")
    chart = page.locator("svg[data-chart=sweep]").last
    expect(chart.locator("[data-axis=x]")).to_contain_text("x.shape[0]")  # the user's name
    expect(chart.locator("[data-axis=x] .tick")).not_to_have_count(0)
    expect(chart.locator("[data-axis=y]")).to_contain_text("cache entry that serves")
    expect(chart.locator("[data-axis=y]")).to_contain_text("recompile")
    legend = chart.locator("[data-legend]")
    for label in ("predicted entry", "entry that served", "recompiled"):
        expect(legend).to_contain_text(label)
    tooltip = chart.locator("[data-tooltip]")
    expect(tooltip).to_be_hidden()
    chart.locator("[data-point='2']").hover()
    expect(tooltip).to_be_visible()
    expect(tooltip).to_have_text(re.compile(r"^x\.shape\[0\] = 6: predicted .*; served by "))
    expect(chart.locator("[data-point='2'] title")).to_contain_text("= 6: predicted")
    page.screenshot(path=str(SHOTS / "sizes-tooltip.png"))
    assert page.errors == []


def test_demo_report_fills_every_tab(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.html"
    # What `make demo` runs, in a process of its own.
    command = [sys.executable, "-m", "symdebug", "demo", "--report", str(path)]
    shown = subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    # progress per call while it compiles, and where the report's compiles came from
    assert "call 1/5: (batch, length, steps) = (1, 6, 2) ..." in shown.stdout
    made = re.search(r"now holds (\d+) compiles: (\d+) from the calls above, (\d+) from the "
                     r"reruns, (\d+) from the sweep", shown.stdout)  # fmt: skip
    assert made is not None, shown.stdout[-2000:]
    total, *parts = (int(n) for n in made.groups())
    assert total == sum(parts) and parts[0] >= 4
    page = open_report(browser, path)
    expect(page.locator(".change").first).to_be_visible()  # what to change leads
    for tab, filled in (
        ("symbols", "tr.row"),
        ("guards", "tr.row"),
        ("why", ".steps li"),
        ("kernels", "[data-pane=kernels] details"),
        ("sizes", "svg[data-chart=sweep] [data-point]"),
    ):
        page.click(f"[data-tab={tab}]")
        expect(page.locator(filled).first).to_be_visible()
    page.click("[data-tab=kernels]")
    expect(page.locator("[data-pane=kernels]")).not_to_contain_text("no generated kernels")
    expect(page.locator("[data-pane=kernels]")).to_contain_text("ks0 = ")  # a size argument
    page.click("[data-tab=sizes]")
    expect(page.locator("[data-pane=sizes]")).to_contain_text("sizes of x.shape[1]")
    expect(page.locator("[data-pane=sizes]")).to_contain_text("3 re-runs")
    assert page.errors == []


def test_why_keeps_each_frame_that_saw_an_input_apart(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    def first(x):  # type: ignore[no-untyped-def]
        return x * 2 if x.shape[0] > 4 else x + 1

    def second(x):  # type: ignore[no-untyped-def]
        return x.view(-1, 2).sum(0)

    torch._dynamo.reset()
    with symdebug.capture() as s:
        cf, cs = torch.compile(first, backend="eager"), torch.compile(second, backend="eager")
        cf(torch.randn(8)), cf(torch.randn(3)), cs(torch.randn(8)), cs(torch.randn(6))
    page = open_report(browser, s.to_html(tmp_path / "two-frames.html"))
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[0]")
    expect(page.locator(".frame-of")).to_contain_text("in second (frame 1")
    newest, older = page.locator("ol.steps").nth(0), page.locator("details.other-frame")
    expect(newest).to_contain_text("recompile 1/1")
    assert "recompile 0/1" not in newest.inner_text()
    expect(older).to_have_count(1)
    expect(older.locator("summary")).to_contain_text("also in first (frame 0")
    older.locator("summary").click()
    expect(older.locator("ol.steps")).to_contain_text("recompile 0/1")
    assert page.errors == []

"""A suite sweep's index page in a real browser (Debian's Chromium via Playwright): one row per
workload with its counts, causes and specialized dimensions, sorted by a clicked column, the
failed workload highlighted; report links only when relative, so a report named
``javascript:...`` is no link; hostile strings stay text; no network access."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_browser import WAIT_MS, open_report
from view_samples import HOSTILE, IMG, suite, wide_suite

from symdebug.renderers.suite_html import write_suite_html

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
BERT = f"bert{HOSTILE}"


@pytest.fixture()
def page(browser, tmp_path: Path):  # type: ignore[no-untyped-def]
    path = write_suite_html(suite(), tmp_path / "index.html")
    assert "<title>symdebug suite</title>" in path.read_text(encoding="utf-8")
    page = open_report(browser, path)
    yield page
    assert page.evaluate("window.pwned") is None
    assert page.locator(".sd img, .sd script").count() == 0
    assert page.errors == []
    assert all(url.startswith("file://") for url in page.requests)
    page.close()


def _names(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.workload)")


def _column(page, key: str) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator(f'tbody td[data-col="{key}"]').all_inner_texts()


def test_matrix_has_a_row_per_workload_and_a_column_per_cause_and_dimension(page) -> None:  # type: ignore[no-untyped-def]
    expect(page.locator("header")).to_contain_text(f"torch 2.13.0+cpu{IMG}")
    expect(page.locator("header")).to_contain_text("3 workloads, 1 did not finish")
    keys = page.locator("thead th[data-col]").evaluate_all("ths => ths.map(th => th.dataset.col)")
    assert keys == [
        "name",
        "compiles",
        "recompiles",
        "graph_breaks",
        "cause:int_specialized",
        "cause:op_requirement",
        "cause:static_by_default",
        "dim:input_ids.shape[1]",
        "dim:L['n']",  # no user name: Dynamo's
        "error",
    ]
    groups = page.locator("thead tr.groups th").evaluate_all(
        "ths => ths.map(th => [th.dataset.group, th.colSpan, th.textContent])"
    )
    assert groups == [
        ["name", 1, ""],
        ["count", 3, "totals"],
        ["cause", 3, "recompiles by cause"],
        ["dim", 2, "inputs made constants (why)"],
        ["error", 1, ""],
    ]
    assert _names(page) == [BERT, "gpt2", "t5"]
    assert _column(page, "compiles") == ["12", "9", "0"]
    assert _column(page, "cause:int_specialized") == ["8", "", ""]
    cell = page.locator('tr[data-workload-row="0"] td[data-col="dim:input_ids.shape[1]"]')
    expect(cell).to_have_text("op_requirement")
    expect(cell).to_have_attribute(
        "title",
        "Bert.forward: input_ids.shape[1] (L['input_ids'].size()[1]) = 8, 16 (op_requirement) "
        f"at bert.py:12: h[:, T - 1]  # {IMG}",
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "suite.png"), full_page=True)


def test_failed_workload_shows_its_error_highlighted(page) -> None:  # type: ignore[no-untyped-def]
    failed = page.locator("tr[data-error=true]")
    expect(failed).to_have_count(1)
    expect(failed).to_have_attribute("data-workload", "t5")
    expect(failed).to_have_class("failed")
    expect(failed.locator("td.error")).to_have_text(f"Traceback: boom {HOSTILE}")
    color = failed.locator("td").first.evaluate("td => getComputedStyle(td).backgroundColor")
    assert color not in ("rgba(0, 0, 0, 0)", "transparent")  # highlighted
    expect(page.locator("tr[data-error=false] td.error")).to_have_text(["", ""])


def test_reports_are_linked_only_by_relative_paths(page) -> None:  # type: ignore[no-untyped-def]
    links = page.locator("tbody a")
    expect(links).to_have_count(1)
    expect(links).to_have_attribute("href", "bert.html")
    expect(links).to_have_text(BERT)
    gpt = page.locator('tr[data-workload="gpt2"] td[data-col=name]')
    expect(gpt).to_have_text("gpt2")
    expect(gpt.locator("[data-report=none]")).to_have_count(1)  # `javascript:alert(1)`: no link
    assert page.locator("[href^='javascript']").count() == 0


def test_clicking_a_header_sorts_numerically_and_again_reverses(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("th[data-col=compiles]").click()
    expect(page.locator("th[data-col=compiles]")).to_have_text("compiles ▲")
    assert _names(page) == ["t5", "gpt2", BERT]  # 0, 9, 12: numbers, not text ("12" < "9")
    page.locator("th[data-col=compiles]").click()
    expect(page.locator("th[data-col=compiles]")).to_have_text("compiles ▼")
    assert _names(page) == [BERT, "gpt2", "t5"]
    page.locator("th[data-col='cause:static_by_default']").click()
    page.locator("th[data-col='cause:static_by_default']").click()
    assert _names(page) == ["gpt2", BERT, "t5"]
    page.locator("th[data-col=name]").click()
    assert _names(page) == [BERT, "gpt2", "t5"]
    page.locator("th[data-col='dim:L[\\'n\\']']").click()  # blank cells first, then the cause
    assert _names(page) == [BERT, "t5", "gpt2"]


#: Where every box of the page lies: the page's own width, the header band, the matrix's
#: scroll box and table, and each group of the band over the columns.
MEASURE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const scroller = document.querySelector(".scroll-x");
  const table = document.querySelector("table.suite");
  const columns = document.querySelectorAll("thead tr.columns th").length;
  const groups = [...document.querySelectorAll("thead tr.groups th")];
  return {
    page: document.scrollingElement.scrollWidth, view: window.innerWidth,
    header: box(document.querySelector("header")).width, scroller: box(scroller).width,
    scrolls: scroller.scrollWidth > scroller.clientWidth, table: box(table),
    band: [box(groups[0]).left, box(groups.at(-1)).right],
    spanned: groups.reduce((n, th) => n + th.colSpan, 0), columns,
  };
}"""


@pytest.mark.parametrize("width", [1280, 760])
def test_a_big_suites_matrix_stays_in_its_page(browser, tmp_path: Path, width: int) -> None:  # type: ignore[no-untyped-def]
    """Twelve workloads, eight causes and six inputs: the matrix fits a laptop's page; where
    it cannot, it scrolls in its own box, and the header band always spans every column."""
    path = write_suite_html(wide_suite(), tmp_path / "index.html")
    page = open_report(browser, path)
    page.set_viewport_size({"width": width, "height": 900})
    at = page.evaluate(MEASURE)
    assert at["page"] <= at["view"]  # the page itself never scrolls sideways
    assert at["header"] == pytest.approx(at["scroller"], abs=1)
    assert at["spanned"] == at["columns"]
    assert at["band"] == pytest.approx([at["table"]["left"], at["table"]["right"]], abs=1)
    assert at["scrolls"] == (width < 1280)  # a laptop's width shows it whole
    page.screenshot(path=str(SHOTS / f"suite-{width}.png"), full_page=True)
    page.close()

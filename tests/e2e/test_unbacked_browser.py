"""Unbacked symbols and data-dependent breaks in the HTML report, in a real browser (Debian's
Chromium via Playwright): the expression, the failed compile, each symbol's origin, as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from programs import captured
from test_report_browser import WAIT_MS, open_report

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    s = captured("unbacked")
    return s.to_html(tmp_path_factory.mktemp("unbacked") / "report.html")


def test_overview_shows_data_dependent_breaks(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    breaks = page.locator(".graph-break")
    expect(breaks).to_have_count(3)
    nonzero = breaks.filter(has_text="idx.shape[0] == 1")
    expect(nonzero).to_contain_text("data-dependent: torch could not decide Eq(u0, 1)")
    expect(nonzero).to_contain_text("torch.cond(idx.shape[0] == 1, true_fn, false_fn, (idx,))")
    failed = breaks.filter(has_text="the compile failed")
    expect(failed).to_contain_text("Data-dependent error")
    marked = breaks.filter(has_text="if x.shape[0] == 1")
    expect(marked).to_contain_text("maybe_mark_dynamic(x, 0)")
    assert page.errors == []  # type: ignore[attr-defined]


def test_symbols_pane_shows_origins(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=symbols]")
    table = page.locator("table")
    expect(table).to_contain_text("the result of .item()")
    expect(table).to_contain_text("the size of nonzero()")
    expect(table).to_contain_text("runtime asserts: u0 >= 0, u0 <= 3")
    expect(table).to_contain_text("the size of repeat_interleave()")
    expect(table).to_contain_text("an input size marked unbacked (mark_unbacked)")
    expect(table).to_contain_text("unbacked")

"""Graph breaks in the HTML report, in a real browser (Debian's Chromium via Playwright):
the line, the reason, the resume frame, the lost dynamism and the skipped frame, as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from programs import captured
from test_report_browser import HOSTILE, WAIT_MS, open_report

import symdebug

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    s = captured("graph_breaks")
    facts = s.facts
    skipped = next(b for b in facts.graph_breaks if b.skipped)
    skipped.reason = HOSTILE  # torch's text is shown as text, never parsed as HTML
    return symdebug.Session(facts).to_html(tmp_path_factory.mktemp("breaks") / "report.html")


def test_overview_shows_graph_breaks(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    breaks = page.locator(".graph-break")
    expect(breaks).to_have_count(5)
    printed = breaks.filter(has_text="between the halves")
    expect(printed).to_contain_text("graph break")
    expect(printed).to_contain_text("Failed to trace builtin operator")
    expect(printed).to_contain_text("torch_dynamo_resume_in_forward_at_")
    expect(printed).to_contain_text("lost dynamism: L['x'].size()[1] was marked dynamic")
    expect(printed).to_contain_text("dynamic_sources")
    skipped = breaks.filter(has_text="skipped for good")
    expect(skipped).to_contain_text("3 in x")
    expect(skipped).to_contain_text(HOSTILE)
    assert page.evaluate("window.pwned") is None and page.errors == []  # type: ignore[attr-defined]


def test_why_pane_names_the_break(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['h'].size()[1]")
    expect(page.locator(".steps")).to_contain_text("graph break at ")
    expect(page.locator(".steps")).to_contain_text("as a constant")

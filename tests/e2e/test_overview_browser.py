"""The overview in a real browser (Debian's Chromium via Playwright): what to change first,
one card per distinct change with the recompiles it removes, then the compiles by cause as a
strip of coloured blocks, then the details folded (issue 46, point 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from programs import captured
from test_report_browser import SHOTS, WAIT_MS, open_report

import symdebug

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, symdebug.Session]:
    torch._dynamo.reset()
    s = captured("repeated_fixes")
    return s.to_html(tmp_path_factory.mktemp("overview") / "report.html"), s


def test_each_change_is_said_once_before_the_details(browser, report) -> None:  # type: ignore[no-untyped-def]
    path, session = report
    page = open_report(browser, path)
    pane = page.locator("[data-pane=overview]")
    sections = pane.locator("section").evaluate_all("s => s.map(e => e.className)")
    assert sections == ["changes", "timelines", "details"]
    changes = session.facts.changes
    expect(pane.locator(".change")).to_have_count(len(changes))
    for index, change in enumerate(changes):
        card = pane.locator(f".change[data-change='{index}']")
        n = len(change.recompiles)
        expected = f"expected to remove {n} recompile{'s' if n > 1 else ''}"
        expect(card.locator(".removes")).to_have_text(expected)
        expect(card.locator("pre.fix-code")).to_have_text(change.fixes[0].code)
        expect(card.locator(".change-where")).to_contain_text(", ".join(change.recompiles))
    # Outside the folded details, each fix's code is shown once: no copy per recompile.
    shown = pane.locator("pre.fix-code:visible").all_inner_texts()
    assert len(shown) == len(set(shown)) == len(changes)
    expect(pane.locator(".recompile").first).to_be_hidden()
    page.screenshot(path=str(SHOTS / "overview-changes.png"), full_page=True)


def test_the_compiles_by_cause_and_the_details_on_demand(browser, report) -> None:  # type: ignore[no-untyped-def]
    path, session = report
    page = open_report(browser, path)
    blocks = page.locator(".timeline .compile")
    expect(blocks).to_have_count(len(session.compiles))
    causes = blocks.evaluate_all("bs => bs.map(b => b.dataset.cause)")
    made = {r.compile_id: r.cause for r in session.facts.recompiles}
    assert causes == [made.get(c.compile_id, "first") for c in session.compiles]
    legend = page.locator(".legend .cause").all_inner_texts()
    assert f"user_branch {list(made.values()).count('user_branch')}" in legend
    page.locator("details.frame-details > summary").first.click()
    expect(page.locator(".recompile").first).to_be_visible()
    expect(page.locator(".recompile")).to_have_count(len(made))

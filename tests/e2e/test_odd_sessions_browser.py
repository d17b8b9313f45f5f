"""The viewer survives saved sessions of odd shapes the schema accepts (issue 33, item 9).

Each document of ``odd_sessions.odd_documents()`` (every list empty; or one record in every
list, its scalars all empty, all huge, or unusual unicode) is loaded, written as a report and
opened in Chromium: the header renders, every tab opens, and the page raises no error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from odd_sessions import odd_documents
from test_report_browser import WAIT_MS, open_report

import symdebug
from symdebug.model import json_text

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
DOCUMENTS = odd_documents()


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_an_odd_session_renders_every_tab_without_errors(
    browser, tmp_path: Path, name: str
) -> None:  # type: ignore[no-untyped-def]
    session = symdebug.Session.from_json(json_text.dumps(DOCUMENTS[name]))
    page = open_report(browser, session.to_html(tmp_path / f"{name}.html"))
    expect(page.locator(".sd header")).to_be_visible()
    expect(page.locator(".sd header")).to_contain_text("compile")
    tabs = page.locator("[data-tab]")
    for index in range(tabs.count()):
        tabs.nth(index).click()
    assert page.errors == []

"""Names a user can act on in the HTML report, in a real browser (Debian's Chromium via
Playwright): a module behind torch's wrapper by its class and ``forward``'s parameter names
(read back from a ``TORCH_TRACE`` log), a library's configuration constants in one row."""

from __future__ import annotations

from pathlib import Path

import pytest
from programs import captured, traced
from test_report_browser import WAIT_MS, open_report

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wrapped")
    return traced("wrapped_module", folder).to_html(folder / "report.html")


def test_module_named_by_class_and_parameters(browser, wrapped: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, wrapped)
    expect(page.locator("h3").first).to_contain_text("frame Encoder.forward")
    page.click("[data-tab=symbols]")
    expect(page.locator("table")).to_contain_text("x.shape[0] (L['args'][0].size()[0])")
    page.click("[data-tab=why]")
    option = page.locator("select[aria-label=source] option", has_text="x.shape[0]")
    expect(option).to_have_text("x.shape[0] (L['args'][0].size()[0])")
    assert page.errors == []  # type: ignore[attr-defined]


def test_library_constants_in_one_row(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("transformers")
    report = captured("hf_gpt2").to_html(tmp_path / "report.html")
    page = open_report(browser, report)
    page.click("[data-tab=symbols]")
    rows = page.locator("tr.expected")
    expect(rows).to_have_count(2)  # one per compile, not one per constant
    expect(rows.first).to_contain_text("9 model-configuration constants of transformers")
    expect(rows.first).to_contain_text("— expected")
    expect(page.locator("table")).not_to_contain_text(".head_dim")
    assert page.errors == []  # type: ignore[attr-defined]

"""Names a user can act on in the HTML report, in a real browser (Debian's Chromium via
Playwright): a module behind torch's wrapper by its class and ``forward``'s parameter names
(read back from a ``TORCH_TRACE`` log), a library's configuration constants in one row; a
plain function's inputs and guards by the user's names beside torch's text (issue 31, 14)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from programs import captured, traced
from scenarios import capture_branch_and_view
from test_report_browser import SHOTS, WAIT_MS, X, open_report

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wrapped")
    # Read on the machine that ran it: forward's parameter names come from its source.
    return traced("wrapped_module", folder, sources=True).to_html(folder / "report.html")


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


@pytest.fixture(scope="module")
def branching(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plain function's report: ``x`` and ``y`` are Dynamo's ``L['x']`` and ``L['y']``."""
    return capture_branch_and_view()[0].to_html(tmp_path_factory.mktemp("names") / "report.html")


def test_symbols_guards_and_inputs_in_the_users_names(browser, branching: Path) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_report(browser, branching)
    recompile = page.locator(".recompile[data-recompile='0/1']")
    expect(recompile).to_contain_text(f"inputs: x.shape[0] ({X})")
    expect(recompile.locator("a.guard")).to_have_text(
        re.compile(r"^x\.shape\[0\] > 4 \(torch: s\d+ > 4\)$")
    )
    page.screenshot(path=str(SHOTS / "names-overview.png"))
    page.click("[data-tab=symbols]")
    sources = page.locator("[data-pane=symbols] tr.row td:nth-child(3)")
    expect(sources.first).to_have_text(f"x.shape[0] ({X})")
    expect(page.locator("[data-pane=symbols] table")).to_contain_text(
        "y.shape[0] (L['y'].size()[0])"
    )
    page.screenshot(path=str(SHOTS / "names-symbols.png"))
    page.click("[data-tab=guards]")
    page.select_option("select[aria-label=cause]", "user_branch")
    cells = page.locator("tr.row td[data-expr]")
    expect(cells).to_have_text([re.compile(r"^x\.shape\[0\] (>|<=) 4 \(torch: s\d+ \1 4\)$")] * 2)
    expect(cells.first.locator(".user-expr")).to_have_text(re.compile(r"^x\.shape\[0\] (>|<=) 4$"))
    expect(cells.first).to_have_attribute("title", re.compile(r"^x\.shape\[0\] .* \(torch: s\d+ "))
    page.screenshot(path=str(SHOTS / "names-guards.png"))
    page.locator("tr.row").first.click()
    expect(page.locator(".detail h3")).to_contain_text("(torch: s")
    page.select_option("select[aria-label=cause]", "")
    search = page.locator("input[placeholder^=search]")
    search.fill("y.shape[0]")
    search.dispatch_event("change")  # the user's name finds the guard torch says with s17
    expect(page.locator("tr.row td[data-expr]")).to_have_text([re.compile(r"y\.shape\[0\]")])
    assert page.errors == []  # type: ignore[attr-defined]

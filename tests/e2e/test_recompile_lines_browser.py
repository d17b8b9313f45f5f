"""Recompiles no guard explains, in the HTML report in a real browser (Debian's Chromium via
Playwright): the cause, the user line (a float's use, the line that marked) and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from programs import captured, marked_line
from test_report_browser import WAIT_MS, open_report

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


@pytest.mark.parametrize(
    ("program", "cause", "marker", "fix"),
    [
        ("float_temperature", "static_by_default", "USES", "temperature = torch.tensor"),
        ("mark_range", "mark_dynamic_range", "MARKS", "mark_dynamic(x, 0, min=2, max=16)"),
        ("dtype_change", "dtype", "CALL", "x = x.to(torch.float32)"),
    ],
)
def test_recompile_shows_cause_line_and_fix(  # type: ignore[no-untyped-def]
    browser, tmp_path: Path, program: str, cause: str, marker: str, fix: str
) -> None:
    report = captured(program).to_html(tmp_path / "report.html")
    page = open_report(browser, report)
    recompile = page.locator(".recompile[data-recompile='0/1']")
    expect(recompile.locator(".cause")).to_have_text(cause)
    line = f"{program}.py:{marked_line(program, marker)}"
    expect(recompile.locator(".recompile-line")).to_contain_text(line)
    expect(recompile).to_contain_text(fix)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_break_in_a_library_shows_both_lines(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The user's line that called into the library, and the library's own line beside it."""
    report = captured("library_helper").to_html(tmp_path / "report.html")
    page = open_report(browser, report)
    first = page.locator(".graph-break").first
    expect(first).to_contain_text(f"library_helper.py:{marked_line('library_helper', 'USER')}")
    expect(first.locator(".library-line")).to_contain_text("tinylib/__init__.py")
    expect(first.locator(".library-line")).to_contain_text("(library)")
    assert page.errors == []  # type: ignore[attr-defined]

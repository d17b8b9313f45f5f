"""torch.export in the HTML report, in a real browser: the export, its error, cause and fix.

The export asks ``Dim("T")`` for a size the model branches on; torch refuses it, and the
report shows the call as an export (its own kind, ``export/0``), torch's message with the
suggested fixes, the user line, and the ``dynamic_shapes`` fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from test_report_browser import WAIT_MS, open_report
from torch.export import Dim

import symdebug

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)


class Fixed(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] == 16:
            return x * 2
        return x + 1


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with symdebug.capture() as s, pytest.raises(torch._dynamo.exc.UserError):
        torch.export.export(Fixed(), (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim("T")}})
    return s.to_html(tmp_path_factory.mktemp("export") / "report.html")


def test_overview_shows_the_export(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    expect(page.locator("h3", has_text="torch.export.export")).to_have_count(1)
    expect(page.locator("[data-compile='export/0']")).to_contain_text("failed")
    expect(page.locator(".export-error")).to_contain_text("Suggested fixes:")
    expect(page.locator(".export-error")).to_contain_text("T = 16")
    assert page.errors == []  # type: ignore[attr-defined]


def test_why_pane_names_the_line_and_the_fix(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=why]")
    page.select_option("select[aria-label=source]", "L['x'].size()[1]")
    steps = page.locator(".steps")
    expect(steps).to_contain_text("if x.shape[1] == 16:")
    expect(steps).to_contain_text("mark_dynamic_violated")
    expect(page.locator(".sd")).to_contain_text('dynamic_shapes={"x": {1: Dim.AUTO}}')

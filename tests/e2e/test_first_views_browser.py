"""What the report shows first, in a real browser (issue 32, items 6, 7, 8, 9 and 14).

The compile chip of a compile without guards shows what it specialized, and the filter lists
every compile; the why tab opens on the input that recompiled most; a guard the backward graph
added says what it is, without empty headings; the sizes chart draws each point as
``prediction_held`` judged it; the guards table fills the page and keeps its columns and cause
pills whole beside the detail pane.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import torch
from test_report_browser import SHOTS, WAIT_MS, open_report

import symdebug
from symdebug.model.compiler_guards import COMPILER_GUARD_SAID

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
Z = "L['z'].size()[0]"


def scale(a: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
    if z.shape[0] > 4:
        return a.sum() + z * 2
    return a.sum() + z + 1


def branch(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def reduce_rows(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * w  # the backward graph reduces over the rows


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    """0/0 static (no guard); z recompiles twice (0/1, 0/2), a never; a sweep that recompiles."""
    torch._dynamo.reset()
    a = torch.randn(4)
    with symdebug.capture() as s:
        compiled = torch.compile(scale, backend="eager")
        compiled(a, torch.randn(8)), compiled(a, torch.randn(3)), compiled(a, torch.randn(9))
        swept = torch.compile(branch, backend="eager", dynamic=True)
        swept(torch.randn(8))
    s.sweep(swept, x=[(n,) for n in range(2, 9)], frame="branch", progress=False)
    return s


@pytest.fixture(scope="module")
def report(session: symdebug.Session, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return session.to_html(tmp_path_factory.mktemp("first") / "first.html")


def test_compile_chip_without_guards_shows_what_it_specialized(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-compile='0/0']")
    assert page.locator("select[aria-label=compile]").input_value() == "0/0"
    summary = page.locator("[data-compile-summary='0/0']")
    expect(summary).to_contain_text(f"z.shape[0] ({Z}) = 8")
    expect(summary).to_contain_text("static-by-default")
    expect(summary.locator("[data-no-guards]")).to_have_text("0/0 has no shape guard")
    options = page.locator("select[aria-label=compile] option").all_inner_texts()
    assert {"0/0", "0/1", "0/2", "1/0", "1/1"} <= set(options)  # every compile, guards or not
    page.screenshot(path=str(SHOTS / "compile-without-guards.png"))
    assert page.errors == []


def test_why_opens_on_the_input_that_recompiled_most(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report, "#why")
    chosen = page.locator("select[aria-label=source]")
    expect(chosen).to_have_value(Z)  # z recompiled twice; L['a'] (first by name) never
    expect(page.locator(".steps")).to_contain_text("recompile 0/2")
    assert page.errors == []


ON_ITS_CROSS = """(svg) => [...svg.querySelectorAll('[data-point]')].map((p) => {
  const box = p.querySelector('path').getBBox();
  const circle = Number(p.querySelector('circle[data-predicted]').getAttribute('cy'));
  return [circle, box.y + box.height / 2];
})"""


def test_sizes_chart_draws_predictions_as_they_were_judged(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=sizes]")
    expect(page.locator("[data-pane=sizes]")).to_contain_text("prediction missed 0")
    chart = page.locator("svg[data-chart=sweep]").last
    expect(chart.locator("[data-point]")).to_have_count(7)
    expect(chart.locator("[data-missed]")).to_have_count(0)  # as the header says
    lanes = chart.evaluate(ON_ITS_CROSS)  # [circle's y, cross's y] per point
    assert all(circle == cross for circle, cross in lanes[1:]), lanes  # served as predicted
    assert lanes[0][0] < lanes[0][1]  # 2 recompiled: its circle in the recompile lane, on top
    expect(chart.locator("[data-earlier]")).to_have_count(2)  # 3 and 4: a recompile before
    expect(chart.locator("[data-legend]")).to_contain_text("predicted before the sweep")
    page.screenshot(path=str(SHOTS / "sizes-judged.png"))
    assert page.errors == []


@pytest.fixture(scope="module")
def backward_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Inductor's backward guard ``s77 <= 4096``, and 40 guards more to fill the table."""
    torch._dynamo.reset()
    w = torch.randn(3, requires_grad=True)
    with symdebug.capture() as s:
        compiled = torch.compile(reduce_rows, backend="inductor", dynamic=True)
        compiled(torch.randn(100, 3), w).sum().backward()
        compiled(torch.randn(5000, 3), w).sum().backward()
    facts = s.facts
    causes = ("op_requirement", "static_by_default", "user_branch", "int_specialized")
    facts.guards += [
        dataclasses.replace(g, id=f"{g.id}-copy{i}", cause=causes[i % len(causes)])
        for i in range(10)
        for g in facts.guards
    ]
    return s.to_html(tmp_path_factory.mktemp("backward") / "backward.html")


def test_backward_guard_says_what_it_is(browser, backward_report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, backward_report, "#guard=0%2F0%231")
    detail = page.locator(".detail [data-detail='0/0#1']")
    expect(detail.locator("[data-compiler-note]")).to_have_text(COMPILER_GUARD_SAID["backward"])
    expect(detail).not_to_contain_text("control flow")
    expect(detail).not_to_contain_text("user stack")  # no empty heading
    assert all(h.strip() for h in detail.locator("h4").all_inner_texts())
    page.screenshot(path=str(SHOTS / "backward-guard.png"))
    assert page.errors == []


CLIPPED = """(table) => [...table.querySelectorAll('th, tr.row td .cause')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1
    || e.getBoundingClientRect().right > (e.closest('td, th').getBoundingClientRect().right + 1))
  .map((e) => e.textContent)"""


def test_guards_table_fills_the_page_and_keeps_columns(browser, backward_report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, backward_report)
    page.click("[data-tab=guards]")
    table = page.locator("table.guards")
    expect(table.locator("tr.row").first).to_be_visible()
    bottom = page.evaluate("document.querySelector('.scroll').getBoundingClientRect().bottom")
    assert bottom > 0.85 * 900, bottom  # no third of the page left blank
    page.locator("tr.row", has_text="op_requirement").first.click()
    expect(page.locator(".detail [data-detail]")).to_be_visible()
    assert table.evaluate(CLIPPED) == []  # headers and cause pills whole beside the detail
    widths = table.evaluate("(t) => [...t.querySelectorAll('th')].map((th) => th.clientWidth)")
    assert min(widths) >= 60 and widths[1] >= 200, widths  # the guard column stays readable
    page.screenshot(path=str(SHOTS / "guards-with-detail.png"))
    assert page.errors == []

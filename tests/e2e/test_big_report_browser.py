"""A report of many compiles in a real browser (issue 33, item 13): its long views are drawn
a part at a time, and still show every row, in the right order.

The document is generated (thousands of guards and symbols, hundreds of compiles): the
guards table scrolls to its last row, sorts numbers in text as numbers in both directions,
filters by a cause and by text; the symbols table draws a window of its rows and scrolls to
the last; the overview draws every frame, the later ones after the first paint; the why tab
shows the most recompiled input at once and lists every other after.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_browser import WAIT_MS, open_report

from symdebug.model.types import (
    Compile,
    Facts,
    Frame,
    Guard,
    Recompile,
    SourceExplanation,
    Symbol,
    WhyStep,
)
from symdebug.renderers.html import write_html

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
FRAMES, PER_FRAME, GUARDS, SYMBOLS = 40, 10, 4000, 1200
COMPILES = FRAMES * PER_FRAME
CAUSES = ["user_branch", "op_requirement", "int_specialized", "inductor", "zero_one"]
LAST_ROW = "const s = document.querySelector('.scroll'); s.scrollTop = s.scrollHeight;"


def compile_id(i: int) -> str:
    return f"{i // PER_FRAME}/{i % PER_FRAME}"


def guard(j: int) -> Guard:
    """Guard ``j``: ``s0 > j`` (numbers that sort apart as text), of compile ``j % COMPILES``."""
    frame = Frame("/src/model.py", 20 + j % 50, "forward", f"if x.shape[0] > {j}:")
    return Guard(
        f"g{j}",
        f"s0 > {j}",
        compile_id(j % COMPILES),
        cause=CAUSES[j % len(CAUSES)],  # type: ignore[arg-type]
        user_stack=[frame],
        phase="dynamo",
        symbols=["s0"],
        sources=["L['x'].size()[0]"],
    )


def big_facts() -> Facts:
    facts = Facts(source="generated")
    for i in range(COMPILES):
        cid = compile_id(i)
        facts.compiles.append(
            Compile(cid, i // PER_FRAME, i % PER_FRAME, name=f"frame_{i // PER_FRAME}")
        )
        if i % PER_FRAME:
            reason = f"{compile_id(i - 1)}: x.size()[0] == {i}"
            facts.recompiles.append(Recompile(cid, compile_id(i - 1), [reason], cause="zero_one"))
    facts.guards = [guard(j) for j in range(GUARDS)]
    facts.symbols = [
        Symbol(f"s{k}", [f"L['x{k}'].size()[0]"], compile_id(k % COMPILES), hint=k)
        for k in range(SYMBOLS)
    ]
    facts.explanations = [explanation(k) for k in range(SYMBOLS)]
    return facts


#: The input the why tab opens on: the only one with recompiles.
MOST_RECOMPILED = 700


def explanation(k: int) -> SourceExplanation:
    """Input ``k``'s explanation: a constant, recompiled for where ``k`` is ``MOST_RECOMPILED``."""
    recompiles = [compile_id(1)] if k == MOST_RECOMPILED else []
    steps = [WhyStep("state", f"L['x{k}'].size()[0] was the constant {k}")]
    source = f"L['x{k}'].size()[0]"
    return SourceExplanation(
        source, compile_id(k % COMPILES), "specialized", None, k, recompiles=recompiles, steps=steps
    )


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_html(big_facts(), tmp_path_factory.mktemp("big") / "big.html")


def shown_ids(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all("tr.row", "rows => rows.map((r) => r.dataset.guard)")


def test_guards_table_scrolls_to_its_last_row_and_sorts(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=guards]")
    expect(page.locator("[data-count]")).to_have_text(f"{GUARDS} of {GUARDS} guards")
    expect(page.locator("tr.row").first).to_have_attribute("data-guard", "g0")
    assert page.locator("tr.row").count() < GUARDS / 10  # a window of the rows, not all
    page.evaluate(LAST_ROW)  # by compile: the last guard of the last compile, 39/9
    expect(page.locator("tr.row[data-guard=g3999]")).to_be_visible()
    page.click("th[data-col=expr]")  # s0 > 9 before s0 > 10: numbers as numbers
    expect(page.locator("th[data-col=expr]")).to_have_text("guard ▲")
    assert shown_ids(page)[:12] == [f"g{j}" for j in range(12)]
    page.evaluate(LAST_ROW)
    expect(page.locator("tr.row[data-guard=g3999]")).to_be_visible()
    assert shown_ids(page)[-3:] == ["g3997", "g3998", "g3999"]
    page.click("th[data-col=expr]")
    expect(page.locator("th[data-col=expr]")).to_have_text("guard ▼")
    expect(page.locator("tr.row").first).to_have_attribute("data-guard", "g3999")
    assert shown_ids(page)[:3] == ["g3999", "g3998", "g3997"]
    assert page.errors == []  # type: ignore[attr-defined]


def test_guards_table_filters_by_cause_and_text(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=guards]")
    page.click("th[data-col=expr]")
    page.select_option("select[aria-label=cause]", "zero_one")  # guards 4, 9, 14, ...
    expect(page.locator("[data-count]")).to_have_text(f"{GUARDS // 5} of {GUARDS} guards")
    expect(page.locator("tr.row").first).to_have_attribute("data-guard", "g4")
    assert shown_ids(page)[:4] == ["g4", "g9", "g14", "g19"]
    causes = page.eval_on_selector_all("tr.row .cause", "cells => cells.map((c) => c.textContent)")
    assert causes and set(causes) == {"zero_one"}
    page.evaluate(LAST_ROW)
    expect(page.locator("tr.row[data-guard=g3999]")).to_be_visible()
    page.select_option("select[aria-label=cause]", "")
    page.fill(".filters input", "> 123")  # s0 > 123 and s0 > 1230 ... 1239
    page.press(".filters input", "Enter")
    expect(page.locator("[data-count]")).to_have_text(f"11 of {GUARDS} guards")
    assert shown_ids(page) == ["g123", *(f"g{j}" for j in range(1230, 1240))]
    assert page.errors == []  # type: ignore[attr-defined]


def test_symbols_table_draws_a_window_and_scrolls_to_the_last(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=symbols]")
    rows = page.locator("[data-pane=symbols] tr.row")
    expect(rows.first).to_contain_text("L['x0'].size()[0]")
    assert rows.count() < SYMBOLS / 10  # a window of the rows, not all
    page.evaluate(LAST_ROW)
    last = rows.filter(has_text=f"L['x{SYMBOLS - 1}'].size()[0]")
    expect(last).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_overview_draws_every_frame(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    expect(page.locator("[data-pane=overview] h3")).to_have_count(FRAMES)  # the later ones idle
    last = page.locator(f".compile[data-compile='{compile_id(COMPILES - 1)}']")
    expect(last).to_have_count(1)
    expect(page.locator(".recompile")).to_have_count(FRAMES * (PER_FRAME - 1))
    page.click("[data-tab=guards]")  # a tab drawn while the overview is still being drawn
    page.click("[data-tab=overview]")
    expect(page.locator("[data-pane=overview] h3")).to_have_count(FRAMES)
    assert page.errors == []  # type: ignore[attr-defined]


def test_why_tab_shows_the_chosen_input_and_lists_every_input(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=why]")
    chosen = page.locator("select[aria-label=source]")
    most = f"L['x{MOST_RECOMPILED}'].size()[0]"
    expect(page.locator(".steps li")).to_have_text(f"{most} was the constant {MOST_RECOMPILED}")
    expect(chosen.locator("option")).to_have_count(SYMBOLS + 1)  # every input (and "all"), after
    expect(chosen).to_have_value(most)
    labels = chosen.locator("option").all_text_contents()
    assert labels[1:4] == ["L['x0'].size()[0]", "L['x1'].size()[0]", "L['x2'].size()[0]"]
    page.select_option("select[aria-label=source]", f"L['x{SYMBOLS - 1}'].size()[0]")
    expect(page.locator(".steps li")).to_have_text(
        f"L['x{SYMBOLS - 1}'].size()[0] was the constant {SYMBOLS - 1}"
    )
    assert page.errors == []  # type: ignore[attr-defined]

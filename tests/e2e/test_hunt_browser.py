"""The overspecialization hunt and a code fix's diff in the HTML report, in a real browser
(Debian's Chromium via Playwright): the hunt's tab, its summary and rows in the document's
order with their verdict chips, sorting by a header, the diff's added and removed lines, and
hostile strings (in a diff, a change, a note, a line) shown as the text they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_browser import WAIT_MS, open_report

import symdebug
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import Compile, Facts, Fix, Frame, Guard, Recompile

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)

SCRIPT = "</script><script>window.__pwned=1</script>"
CONDITION = 's0 < 1024 && "x"'
BRANCH = Frame(f"/w/{SCRIPT}/prog.py", 12, "f", f"if n > 4:  # {CONDITION}")
ADDED = f"+    if x.shape[0] > 4:  # {CONDITION} {SCRIPT}"
REMOVED = f"-    if n > 4:  # {SCRIPT}"
DIFF = f"--- a/prog.py\n+++ b/prog.py\n@@ -12,2 +12,2 @@\n def f(x, n):\n{REMOVED}\n{ADDED}\n"
CHANGE = f"torch._dynamo.maybe_mark_dynamic(x, 1)  # {SCRIPT}"


def hunt_rows() -> list[HuntRow]:
    """Four rows in the hunt's order (most compiles saved first): two avoidable, a needed, an
    untested one."""
    return [
        HuntRow(
            "L['x'].size()[1]",
            "x.shape[1]",
            "size",
            "static_by_default",
            "avoidable",
            compiles=2,
            change=CHANGE,
            before=3,
            after=1,
            outputs_equal=True,
            note=f"equal outputs {CONDITION}",
        ),
        HuntRow(
            "L['z'].size()[0]",
            "z.shape[0]",
            "size",
            "duck_sizing",
            "avoidable",
            compiles=1,
            change="torch._dynamo.config.use_duck_shape = False",
            before=2,
            after=1,
        ),
        HuntRow(
            "L['n']", "n", "int", "user_branch", "needed", cause="user_branch", user_frame=BRANCH
        ),
        HuntRow("L['y'].size()[0]", "", "size", "zero_one", "untested", note=f"raised: {SCRIPT}"),
    ]


def hunted() -> symdebug.Session:
    """Two compiles of ``f``; the recompile's best fix a verified rewrite with its diff."""
    guard = Guard("0/0#0", "Eq(s0, 3)", "0/0", cause="user_branch", user_stack=[BRANCH])
    rewrite = Fix(f"x.shape[0] > 4  # {CONDITION}", "code", "a size, not an int", verified=True)
    rewrite.effect, rewrite.diff = "measured: 3 -> 1 compiles", DIFF
    guard.fixes = [rewrite]
    recompile = Recompile(
        "0/1", "0/0", ["0/0: L['n'] == 3"], guard, "user_branch", sources=["L['n']"]
    )
    recompile.fixes = [rewrite]
    facts = Facts(
        compiles=[Compile("0/0", 0, 0, name="f"), Compile("0/1", 0, 1, name="f")],
        guards=[guard],
        recompiles=[recompile],
        hunt=hunt_rows(),
        source="synthetic",
    )
    return symdebug.Session(facts)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hunted().to_html(tmp_path_factory.mktemp("hunt") / "report.html")


def test_the_page_holds_no_hostile_markup(report: Path) -> None:
    html = report.read_text()
    assert SCRIPT not in html and CONDITION not in html  # escaped once, at the HTML boundary


def test_the_hunt_tab_shows_each_row_in_order_with_its_verdict(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=hunt]")
    pane = page.locator("[data-pane=hunt]")
    expect(pane.locator(".hunt-summary")).to_have_text(
        "2 avoidable (3 compiles saved), 1 needed, 1 untested"
    )
    rows = pane.locator("table.hunt tbody tr")
    expect(rows).to_have_count(4)
    names = ["x.shape[1]", "z.shape[0]", "n", "L['y'].size()[0]"]
    verdicts = ["avoidable", "avoidable", "needed", "untested"]
    for i, (name, verdict) in enumerate(zip(names, verdicts, strict=True)):
        expect(rows.nth(i).locator("[data-col=input]")).to_have_text(name)
        chip = rows.nth(i).locator(".verdict")
        expect(chip).to_have_text(verdict)
        expect(chip).to_have_class(f"verdict {verdict}")
    expect(rows.nth(0).locator("[data-col=input]")).to_have_attribute("title", "L['x'].size()[1]")
    assert chip_colours(page)["avoidable"] != chip_colours(page)["needed"]
    first = rows.nth(0)
    expect(first.locator("[data-col=compiles]")).to_have_text("2")
    expect(first.locator("[data-col=runs]")).to_have_text("3 → 1")
    expect(first.locator("code.change")).to_have_text(CHANGE)
    expect(first.locator("[data-col=note]")).to_have_text(f"equal outputs {CONDITION}")
    needed = rows.nth(2).locator("[data-col=evidence]")
    expect(needed.locator(".cause")).to_have_text("user_branch")
    expect(needed).to_contain_text(f"{BRANCH.filename}:12")
    expect(needed.locator("code.line")).to_have_text(BRANCH.line)
    expect(rows.nth(3).locator("[data-col=note]")).to_have_text(f"raised: {SCRIPT}")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.errors == []  # type: ignore[attr-defined]


def chip_colours(page) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each verdict chip's background colour, by verdict."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.verdict')]
            .map((e) => [e.textContent, getComputedStyle(e).backgroundColor]))"""
    )


def test_a_header_sorts_the_hunt_and_again_reverses_it(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    page.click("[data-tab=hunt]")
    header = page.locator("table.hunt th[data-col=compiles]")
    header.click()
    inputs = page.locator("table.hunt tbody [data-col=input]")
    expect(inputs).to_have_text(["n", "L['y'].size()[0]", "z.shape[0]", "x.shape[1]"])
    expect(header).to_have_text("compiles saved ▲")
    header.click()
    expect(inputs).to_have_text(["x.shape[1]", "z.shape[0]", "n", "L['y'].size()[0]"])
    expect(header).to_have_text("compiles saved ▼")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_fix_shows_its_diff_with_added_and_removed_lines(browser, report: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, report)
    diff = page.locator(".recompile .fix pre.fix-diff").first
    expect(diff).to_have_text(DIFF.rstrip("\n"))
    expect(diff.locator(".add")).to_have_text(f"\n{ADDED}")
    expect(diff.locator(".del")).to_have_text(f"\n{REMOVED}")
    colours = diff.evaluate(
        """(pre) => ['add', 'del'].map((k) => getComputedStyle(pre.querySelector('.' + k)).color)"""
    )
    assert colours == ["rgb(17, 99, 41)", "rgb(164, 14, 38)"]  # green, red
    expect(page.locator(".recompile .fix").first).to_contain_text("measured: 3 -> 1 compiles")
    page.click("[data-tab=guards]")
    page.locator("tr.row").first.click()
    expect(page.locator(".detail pre.fix-diff")).to_contain_text(ADDED)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.errors == []  # type: ignore[attr-defined]


def test_no_hunt_tab_without_hunt_rows(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session = hunted()
    session.facts.hunt = []
    page = open_report(browser, session.to_html(tmp_path / "no-hunt.html"))
    expect(page.locator("[data-tab=overview]")).to_be_visible()
    expect(page.locator("[data-tab=hunt]")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]

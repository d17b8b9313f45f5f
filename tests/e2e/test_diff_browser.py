"""The diff of two runs in a real browser (Debian's Chromium via Playwright): the verdict,
each rank's sides and frames, sorting by a column, a frame's detail on click; hostile strings
stay text and nothing runs; no network access."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_browser import WAIT_MS, open_report
from view_samples import HOSTILE, IMG, STEP_LINE, calm_diff, regressed_diff

from symdebug.renderers.diff_html import render_diff_html, write_diff_html

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


@pytest.fixture(scope="module")
def regressed_page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_diff_html(regressed_diff(), tmp_path_factory.mktemp("diff") / "diff.html")


def _frame_titles(section) -> list[str]:  # type: ignore[no-untyped-def]
    return section.locator("tr[data-frame-row] td[data-col=title]").all_inner_texts()


def _assert_inert(page) -> None:  # type: ignore[no-untyped-def]
    assert page.evaluate("window.pwned") is None
    assert page.locator(".sd img, .sd script").count() == 0
    assert page.errors == []
    assert all(url.startswith("file://") for url in page.requests)


def test_page_is_the_diff_with_its_own_title(regressed_page_file: Path) -> None:
    text = regressed_page_file.read_text(encoding="utf-8")
    assert "<title>symdebug diff</title>" in text
    assert HOSTILE not in text  # the JSON holds it escaped (\u003c), never as markup
    assert render_diff_html(regressed_diff()) == text


def test_header_says_regressed_and_shows_labels_and_notes_as_text(  # type: ignore[no-untyped-def]
    browser, regressed_page_file: Path
) -> None:
    page = open_report(browser, regressed_page_file)
    header = page.locator("[data-diff-header]")
    expect(header.locator("[data-label=before]")).to_have_text(f"runs/before{HOSTILE}")
    expect(header.locator("[data-label=after]")).to_have_text("runs/after")
    badge = header.locator(".verdict")
    expect(badge).to_have_text("REGRESSED")
    expect(badge).to_have_attribute("data-regressed", "true")
    expect(page.locator("[data-notes=diff] li")).to_have_text(f"rank 2 only after {IMG}")
    _assert_inert(page)
    page.close()


def test_each_rank_has_its_sides_problems_notes_and_frames(  # type: ignore[no-untyped-def]
    browser, regressed_page_file: Path
) -> None:
    page = open_report(browser, regressed_page_file)
    rank0, rank1 = page.locator("section[data-run='0']"), page.locator("section[data-run='1']")
    expect(rank0).to_have_attribute("data-regressed", "true")
    expect(rank1).to_have_attribute("data-regressed", "false")
    expect(rank1.locator(".verdict")).to_have_text("no regression")
    before = rank0.locator("[data-side=before]")
    expect(before).to_contain_text(f"before{HOSTILE}.log")
    expect(before.locator("[data-totals]")).to_have_text("6 compiles, 2 recompiles, 0 graph breaks")
    expect(before.locator("[data-problems]")).to_have_text("problems: bad_event 2")
    before.locator("summary").click()
    expect(before.locator("details pre")).to_have_text(f"line 7: not JSON {HOSTILE}")
    expect(rank0.locator("[data-side=after] [data-problems]")).to_have_count(0)
    expect(rank0.locator(".notes li")).to_have_text(f"rank 0 note {IMG}")
    rows = rank0.locator("tr[data-frame-row]")
    expect(rows).to_have_count(4)
    regressed = rank0.locator("tr[data-regressed=true]")
    expect(regressed).to_have_count(1)
    expect(regressed.locator("td[data-col=title]")).to_have_text(f"train_step{IMG}")
    expect(regressed.locator("td[data-col=regressed]")).to_contain_text("compiles 2 -> 5")
    expect(regressed.locator("td[data-col=change]")).to_have_text("+3")
    statuses = rows.evaluate_all("rows => rows.map(r => r.dataset.status)")
    assert statuses == ["matched", "matched", "added", "removed"]
    expect(rank1).to_contain_text("no frame compiled on either side")
    _assert_inert(page)
    page.close()


def test_clicking_a_header_sorts_the_frames(browser, regressed_page_file: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, regressed_page_file)
    rank0 = page.locator("section[data-run='0']")
    regressed_title = f"train_step{IMG}"
    assert _frame_titles(rank0) == [regressed_title, "eval_step", "new_helper", "old_helper"]
    rank0.locator("th[data-col=compiles_after]").click()  # numbers: 0, 1, 4, 5
    expect(rank0.locator("th[data-col=compiles_after]")).to_have_text("compiles after ▲")
    assert _frame_titles(rank0) == ["old_helper", "eval_step", "new_helper", regressed_title]
    rank0.locator("th[data-col=compiles_after]").click()
    expect(rank0.locator("th[data-col=compiles_after]")).to_have_text("compiles after ▼")
    assert _frame_titles(rank0) == [regressed_title, "new_helper", "eval_step", "old_helper"]
    rank0.locator("th[data-col=change]").click()  # -2, -1, +3, +4
    assert _frame_titles(rank0) == ["eval_step", "old_helper", regressed_title, "new_helper"]
    rank0.locator("th[data-col=title]").click()
    assert _frame_titles(rank0) == ["eval_step", "new_helper", "old_helper", regressed_title]
    _assert_inert(page)
    page.close()


def test_clicking_a_frame_shows_what_it_gained_with_lines_and_fixes(  # type: ignore[no-untyped-def]
    browser, regressed_page_file: Path
) -> None:
    page = open_report(browser, regressed_page_file)
    rank0 = page.locator("section[data-run='0']")
    expect(rank0.locator("[data-frame-detail]")).to_have_count(0)
    rank0.locator("th[data-col=title]").click()  # the detail follows the frame, not its row
    rank0.locator("tr[data-regressed=true]").click()
    detail = rank0.locator("[data-frame-detail='0']")
    expect(detail.locator("h3")).to_have_text(f"train_step{IMG}")
    expect(detail.locator("[data-regressions] li")).to_have_text(
        ["compiles 2 -> 5", f"new specialization of n {HOSTILE}"]
    )
    expect(rank0.locator("tr.on")).to_have_attribute("data-frame-row", "0")
    recompile = detail.locator("[data-item-kind=recompile][data-change=added]")
    expect(recompile.locator("[data-cause]")).to_have_text("int_specialized")
    expect(recompile.locator("[data-item-text]")).to_have_text("n == 3")
    expect(recompile.locator("[data-count]")).to_have_attribute("data-count", "3")
    expect(recompile.locator("[data-input]")).to_have_text("input: n (L['n'])")
    where = f"{STEP_LINE.filename}:{STEP_LINE.lineno} in {STEP_LINE.name}"
    expect(recompile.locator("[data-user-line]")).to_have_text(f"user line: {where}")
    expect(recompile.locator("pre.code")).to_have_text(STEP_LINE.line)  # the hostile line, as text
    expect(recompile.locator("pre.fix-code")).to_have_text("n = torch.as_tensor(n)")
    special = detail.locator("[data-item-kind=specialization]")
    expect(special.locator("[data-item-text]")).to_have_text(f"n = 3, 4 {HOSTILE}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "diff-frame-detail.png"), full_page=True)
    rank0.locator("tr[data-frame-row='1']").click()  # eval_step: what it lost
    detail = rank0.locator("[data-frame-detail='1']")
    expect(detail.locator("[data-group]")).to_have_count(2)
    gone = detail.locator("[data-item-kind=recompile][data-change=removed]")
    expect(gone.locator("[data-input]")).to_have_text("input: x.shape[0] (L['x'].size()[0])")
    expect(gone.locator("[data-count]")).to_have_text("\u00d72")  # times 2
    broke = detail.locator("[data-item-kind=graph_break][data-change=removed]")
    expect(broke.locator("[data-cause]")).to_have_count(0)
    expect(broke.locator("[data-user-line]")).to_have_text("user line: /w/ev.py:4 in ev")
    rank0.locator("tr[data-frame-row='2']").click()  # added, nothing listed
    expect(rank0.locator("[data-frame-detail='2']")).to_contain_text("no recompile")
    _assert_inert(page)
    page.close()


def test_a_diff_without_regression_says_so(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = open_report(browser, write_diff_html(calm_diff(), tmp_path / "calm.html"))
    badge = page.locator("[data-diff-header] .verdict")
    expect(badge).to_have_text("no regression")
    expect(badge).to_have_attribute("data-regressed", "false")
    section = page.locator("section.run")
    expect(section).to_have_count(1)
    expect(section).to_have_attribute("data-run", "pair")
    expect(section.locator("h2")).to_contain_text("the two runs")
    expect(page.locator("tr[data-regressed=true]")).to_have_count(0)
    expect(page.locator("[data-notes]")).to_have_count(0)
    _assert_inert(page)
    page.close()

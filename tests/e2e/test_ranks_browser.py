"""The rank matrix page in a real browser (Debian's Chromium via Playwright): the odd rank's
cell marked, each frame's first difference said, hostile names shown as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_browser import WAIT_MS

from symdebug.queries.ranks import Divergence, RankDifference
from symdebug.renderers.ranks_html import render_ranks

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=WAIT_MS)

HOSTILE = "</script><script>window.pwned = 1</script><img src=x onerror=alert(1)>"


def test_rank_matrix_marks_the_odd_rank_and_escapes_names(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    frame = f"step{HOSTILE} (train.py:8)"
    reason = f"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 7 {HOSTILE}"
    values = {0: "absent", 1: "absent", 2: f"recompiled (static_by_default): {reason}"}
    difference = RankDifference(frame, 1, "recompile", values, [2])
    divergence = Divergence([0, 1, 2], {frame: {0: 1, 1: 1, 2: 2}}, [difference])
    page_file = tmp_path / "job.ranks.html"
    page_file.write_text(render_ranks(divergence, {2: "job.rank2.html"}), encoding="utf-8")
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    page.wait_for_selector("table")
    expect(page.locator("p.summary")).to_contain_text("odd one(s) out: rank 2")
    odd = page.locator("td.odd")
    expect(odd).to_have_count(1)
    expect(odd).to_have_attribute("data-rank", "2")
    expect(page.locator("tbody th")).to_have_text(frame)  # the markup shown as text
    expect(page.locator("li.difference")).to_contain_text("expected 8, actual 7")
    expect(page.locator("a", has_text="rank 2")).to_have_attribute("href", "job.rank2.html")
    assert page.evaluate("window.pwned") is None
    assert page.locator("img").count() == 0
    assert errors == []
    assert requests == [page_file.as_uri()]  # no network, nothing but the page itself
    page.close()


def test_redacted_rank_matrix_names_second_logs_and_shows_notes(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # A second log of rank 0 is kept under key 1 and named so: no rank 1 exists (issue 33).
    frame = "step (/srv/project/SECRET_DIR/train.py:8)"
    reason = (
        "0/0: mode == 'secret-token-123'  # if mode == 'secret-token-123':  # train.py:9\n"
        'User stack trace:\n  File "/srv/project/SECRET_DIR/train.py", line 9, in step'
    )
    values = {0: "absent", 1: f"recompiled (identity): {reason}"}
    labels = {1: "rank 0 (second log)"}
    difference = RankDifference(frame, 1, "recompile", values, [1], labels)
    divergence = Divergence([0, 1], {frame: {0: 1, 1: 2}}, [difference], labels)
    notes = [f"job_rank_3.log links outside the folder: not read {HOSTILE}"]
    page_file = tmp_path / "job.ranks.html"
    page_file.write_text(render_ranks(divergence, {}, notes, redact=True), encoding="utf-8")
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(page_file.as_uri())
    page.wait_for_selector("table")
    expect(page.locator("thead th").nth(2)).to_have_text("rank 0 (second log)")
    expect(page.locator("p.summary")).to_contain_text("odd one(s) out: rank 0 (second log)")
    expect(page.locator("tbody th")).to_have_text("step (train.py:8)")
    odd = page.locator("li.difference li").nth(1)
    expect(odd).to_have_text(
        "rank 0 (second log) (odd): recompiled (identity): 0/0: mode == (redacted)"
    )
    expect(page.locator("li.note")).to_have_text(notes[0])  # the markup shown as text
    text = page.locator("body").inner_text()
    assert "SECRET_DIR" not in text and "secret-token-123" not in text and "File " not in text
    assert "rank 1" not in text
    assert page.evaluate("window.pwned") is None
    page.close()

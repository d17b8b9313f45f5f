"""A big log's report opened in headless Chromium (issue 33, item 13).

Goals: the first paint within 3 s, and every tab switch, sort and filter within 0.5 s.

The log is ``bench_big_log.py``'s synthetic one (``BENCH_BIG_MB`` sets its size; default
250 MB, which already holds thousands of compiles; ``BENCH_BIG_KIND`` its kind).  Its report
is written twice: by this checkout and by symdebug at ``BENCH_BASE`` (a git revision,
default the one before issue 33: its Python and its viewer, from ``git archive``; ``none``
leaves it out), so the two are measured side by side, in one run.  Each figure is measured
in the page: the first contentful paint from the page's own paint timing, and each action
from ``performance.now()`` before it until the frame after it was drawn; each figure is the
median of ``BENCH_ROUNDS`` (3) openings.  A goal missed by the current viewer exits 1.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_big_log import SAID, big_log
from figures import Recorder, knob, main_of

ROOT = Path(__file__).resolve().parents[1]
PAINT_GOAL_MS, ACTION_GOAL_MS = 3000, 500
WAIT_MS = 600_000

# An action in the page, timed until the frame after it is drawn (rAF, then a task).
TIMED = """async () => {
  const start = performance.now();
  %s;
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - start;
}"""
FIRST_PAINT = """() => {
  const paints = performance.getEntriesByType("paint");
  const paint = paints.find((e) => e.name === "first-contentful-paint");
  return paint ? paint.startTime : performance.now();
}"""
TAB = "document.querySelector('[data-tab={}]').click()"
SORT = "document.querySelector('th[data-col=expr]').click()"
SELECT = """const s = document.querySelector('select[aria-label={}]');
s.value = s.options[s.options.length - 1].value; s.dispatchEvent(new Event('change'));"""
SEARCH = """const s = document.querySelector('.filters input');
s.value = '{}'; s.dispatchEvent(new Event('change'));"""
SCROLL = "const s = document.querySelector('.scroll'); s.scrollTop = s.scrollHeight;"


def report_of(log: Path, page: Path, package: Path | None = None) -> Path:
    """The report of ``log`` by the CLI of this checkout, or of the package in ``package``."""
    env = dict(os.environ, PYTHONPATH=str(package)) if package else None
    command = [sys.executable, "-m", "symdebug", "report", str(log), "-o", str(page)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=page.parent)
    return page


def base_package(work: Path, base: str) -> Path | None:
    """``base``'s package (its Python and its viewer); none outside a git checkout."""
    if base == "none":
        return None
    folder = work / "base"
    folder.mkdir()
    try:
        command = ["git", "archive", "--format=tar", base, "symdebug"]
        archive = subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return folder


def actions(tabs: list[str]) -> list[tuple[str, str]]:
    """Each measured action: every tab, then the guards table's sort, filters and scroll."""
    steps = [(f"tab {tab}", TAB.format(tab)) for tab in tabs if tab != "overview"]
    steps += [("tab overview", TAB.format("overview")), ("tab guards", TAB.format("guards"))]
    steps += [
        ("guards: sort by guard", SORT),
        ("guards: scroll to the end", SCROLL),
        ("guards: filter a cause", SELECT.format("cause")),
        ("guards: search text", SEARCH.format("size")),
        ("guards: filter a compile", SELECT.format("compile")),
    ]
    return steps


def measure(browser: object, page_path: Path) -> dict[str, float]:
    """First paint and each action's milliseconds in one fresh page."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_path.as_uri(), wait_until="load")
    if errors:  # the viewer failed: nothing will be drawn
        raise RuntimeError(f"{page_path.name}: {errors[0]}")
    page.wait_for_selector(".sd header")
    figures = {"first paint": page.evaluate(FIRST_PAINT)}
    tabs = page.eval_on_selector_all("nav [data-tab]", "bs => bs.map((b) => b.dataset.tab)")
    for name, action in actions(tabs):
        figures[name] = page.evaluate(TIMED % action)
    page.close()
    return figures


def medians(browser: object, pages: list[Path], rounds: int) -> list[dict[str, float]]:
    """Each page's figures, the median of ``rounds`` openings, the pages opened in turn."""
    runs: list[list[dict[str, float]]] = [[] for _ in pages]
    for _ in range(rounds):
        for figures, page in zip(runs, pages, strict=True):
            figures.append(measure(browser, page))
    return [
        {name: statistics.median(f[name] for f in figures) for name in figures[0]}
        for figures in runs
    ]


def printed(before: dict[str, float] | None, after: dict[str, float], recorder: Recorder) -> None:
    """The figures side by side; the current viewer's recorded, with its goals."""
    print(f"  {'':28} {'before':>10} {'after':>10}   goal")
    for name, ms in after.items():
        goal = PAINT_GOAL_MS if name == "first paint" else ACTION_GOAL_MS
        old = f"{before[name]:8,.0f} ms" if before and name in before else f"{'-':>11}"
        mark = "" if ms <= goal else "  MISSED"
        print(f"  {name:28} {old} {ms:7,.0f} ms   <= {goal:,} ms{mark}")
        key = re.sub(r"\W+", "_", name).strip("_")
        recorder.add(f"{key}_ms", ms, "ms", target=("<=", goal))


def run(recorder: Recorder) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium not on PATH: nothing measured (make browser installs it)")
        recorder.fail("chromium not on PATH: nothing measured")
        return
    from playwright.sync_api import sync_playwright

    kind = knob("BENCH_BIG_KIND", "renamed")
    log = big_log(int(knob("BENCH_BIG_MB", 250)), kind)
    base, rounds = knob("BENCH_BASE", "03e85c0"), int(knob("BENCH_ROUNDS", 3))
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        work = Path(folder)
        after_page = report_of(log, work / "after.html")
        base_folder = base_package(work, base)
        before_page = report_of(log, work / "before.html", base_folder) if base_folder else None
        pages = [page for page in (before_page, after_page) if page]
        sizes = " and ".join(f"{page.stat().st_size / 1e6:,.0f} MB" for page in pages)
        print(f"the report of a {log.stat().st_size / 1e6:,.0f} MB log: {sizes} of HTML")
        print(f"  the log: {SAID[kind]}")
        print(f"  before: symdebug at {base} (its report and viewer); after: this checkout's")
        recorder.add("log_mb", log.stat().st_size / 1e6, "MB", note=SAID[kind])
        recorder.add("html_mb", after_page.stat().st_size / 1e6, "MB")
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        *before, after = medians(browser, pages, rounds)
        browser.close()
    printed(before[0] if before else None, after, recorder)


if __name__ == "__main__":
    main_of(run, "report_open", __file__)

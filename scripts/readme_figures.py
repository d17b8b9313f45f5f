"""Write the README's benchmark figures from ``out/bench-figures.json`` (``make bench``'s).

Every figure of the README that a benchmark measures sits between markers that name it and
its format (a Python format spec), and the run's date and machine likewise::

    a 1 GB log summarised in <!-- bench:big_log.summary.cpu_s .0f -->24<!-- /bench --> s
    (measured <!-- bench:date -->2026-12-03<!-- /bench --> on <!-- bench:machine -->...)

This script rewrites the text between the markers from the figures file.  ``--check``
changes nothing and exits 1 when the README differs from the file (a unified diff is
printed).  It fails when a figure the README names is missing, when the figures come from a
run with other settings than ``make bench``'s (``quick``), or from more than one machine.

    python scripts/readme_figures.py            # rewrite README.md
    python scripts/readme_figures.py --check    # after make bench: is README.md up to date?
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FIGURES = ROOT / "out" / "bench-figures.json"
MARKER = re.compile(
    r"<!-- bench:(?P<name>[\w.-]+)(?: (?P<spec>\S+))? -->(?P<text>.*?)<!-- /bench -->", re.S
)
#: Markers that name the run rather than a figure.
RUN_NAMES = ("date", "machine")


class FiguresError(Exception):
    """The README cannot be written from this figures file."""


@dataclass(frozen=True)
class Recorded:
    """One figure of the file, and the benchmark entry it belongs to."""

    value: float
    bench: str
    entry: dict[str, Any]


def load_figures(path: Path) -> dict[str, Recorded]:
    """Every figure of the file, by name."""
    if not path.exists():
        raise FiguresError(f"{path} does not exist: run make bench first")
    document = json.loads(path.read_text(encoding="utf-8"))
    return {
        figure["name"]: Recorded(figure["value"], bench, entry)
        for bench, entry in document.get("benchmarks", {}).items()
        for figure in entry.get("figures", [])
    }


def used_entries(text: str, figures: dict[str, Recorded]) -> dict[str, dict[str, Any]]:
    """The benchmark entries the README's figures come from; raises on a missing figure."""
    names = [m["name"] for m in MARKER.finditer(text) if m["name"] not in RUN_NAMES]
    missing = sorted({name for name in names if name not in figures})
    if missing:
        raise FiguresError(f"figures not in the file: {', '.join(missing)}")
    return {figures[name].bench: figures[name].entry for name in names}


def check_entries(entries: dict[str, dict[str, Any]], allow_quick: bool) -> None:
    """Refuse figures from quick settings, or from more than one machine."""
    quick = sorted(bench for bench, entry in entries.items() if entry.get("quick"))
    if quick and not allow_quick:
        raise FiguresError(f"figures from settings other than make bench's: {', '.join(quick)}")
    machines = {json.dumps(entry.get("machine"), sort_keys=True) for entry in entries.values()}
    if len(machines) > 1:
        raise FiguresError(f"figures from {len(machines)} machines: {sorted(machines)}")


def date_text(entries: dict[str, dict[str, Any]]) -> str:
    """The day of the run, or the first and last day when it spans several."""
    days = sorted({str(entry["date"])[:10] for entry in entries.values()})
    return days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"


def machine_text(entries: dict[str, dict[str, Any]]) -> str:
    """The machine in words: CPU, cores, memory, OS, Python and torch."""
    machine = next(iter(entries.values()))["machine"]
    return (
        f"{machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB,"
        f" {machine['os']}, Python {machine['python']}, torch {machine['torch']}"
    )


def rewritten(text: str, figures: dict[str, Recorded], allow_quick: bool = False) -> str:
    """``text`` with every marker's text written from the figures."""
    entries = used_entries(text, figures)
    check_entries(entries, allow_quick)
    run = {"date": date_text(entries), "machine": machine_text(entries)} if entries else {}

    def written(match: re.Match[str]) -> str:
        name, spec = match["name"], match["spec"] or ""
        value = run[name] if name in RUN_NAMES else format(figures[name].value, spec)
        head = f"<!-- bench:{name}{' ' + spec if spec else ''} -->"
        return f"{head}{value}<!-- /bench -->"

    return MARKER.sub(written, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md differs")
    parser.add_argument("--figures", type=Path, default=FIGURES)
    parser.add_argument("--readme", type=Path, default=README)
    parser.add_argument("--allow-quick", action="store_true", help="to try the script only")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    try:
        new = rewritten(text, load_figures(args.figures), args.allow_quick)
    except FiguresError as error:
        print(f"readme_figures: {error}", file=sys.stderr)
        return 2
    count = len(MARKER.findall(text))
    if args.check:
        diff = difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), str(args.readme), "from the figures"
        )
        changed = "".join(diff)
        print(changed or f"{args.readme}: {count} figures equal to {args.figures}")
        return 1 if changed else 0
    args.readme.write_text(new, encoding="utf-8")
    print(f"{args.readme}: {count} figures written from {args.figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Each benchmark's figures, recorded in one machine-readable file (``out/bench-figures.json``).

A benchmark reads its settings with :func:`knob` (an environment variable and the value
``make bench`` runs it with), then records each figure with :meth:`Recorder.add`, a target
with it where the figure has one, and ends with :meth:`Recorder.finish`: its figures replace
that benchmark's entry in the file (the other benchmarks' entries are kept), and the exit
status it returns is 1 when a target was missed.  The file, written whole each time::

    {"format": 1,
     "benchmarks": {
       "tlparse": {
         "script": "benchmarks/bench_tlparse.py",
         "date": "2026-12-03T14:02:11+00:00",
         "machine": {"cpu": "...", "cores": 2, "memory_gib": 23.4, "os": "Linux-6.1-...",
                     "python": "3.11.2", "torch": "2.13.0+cpu"},
         "settings": {"BENCH_GRAPHS": "20,90,270"},
         "quick": false,
         "passed": true,
         "failures": [],
         "figures": [{"name": "tlparse.graphs_270.cpu_ratio", "value": 0.083, "unit": "x",
                      "target": {"op": "<=", "value": 0.15}, "met": true, "note": null},
                     ...],
         "exit_code": 0, "seconds": 212.4}}}

``quick`` is true when a setting differs from the one ``make bench`` uses: such figures are
not the README's (``scripts/readme_figures.py`` refuses them).  ``failures`` names each
missed target, and each failed check that is no figure (:meth:`Recorder.fail`); a figure
without a target has ``target`` and ``met`` null.  ``benchmarks/run_all.py`` adds
``exit_code`` and ``seconds`` to each entry it ran.  ``BENCH_FIGURES`` names another file.
"""

from __future__ import annotations

import datetime
import json
import operator
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FORMAT = 1
#: Each target's comparison, by the sign the file writes.
COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    "==": operator.eq,
}
#: The settings read by :func:`knob` in this process, and the values ``make bench`` uses.
_SETTINGS: dict[str, tuple[str, str]] = {}


def figures_path() -> Path:
    """The figures file: ``BENCH_FIGURES``, or ``out/bench-figures.json``."""
    return Path(os.environ.get("BENCH_FIGURES", ROOT / "out" / "bench-figures.json"))


def knob(name: str, default: object, given: object = None) -> str:
    """A setting: ``given`` (a command-line value), else the environment's, else ``default``.

    ``default`` is the value ``make bench`` runs with; the entry records both.
    """
    value = str(given) if given is not None else os.environ.get(name, str(default))
    _SETTINGS[name] = (value, str(default))
    return value


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return round(pages * size / 2**30, 1)


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    """This machine: CPU model, cores, memory, OS, Python and torch (not imported)."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "torch": _version("torch"),
    }


@dataclass
class Figure:
    """One measured figure, and its target (``{"op": "<=", "value": 0.15}``) if it has one."""

    name: str
    value: float
    unit: str
    target: dict[str, Any] | None = None
    met: bool | None = None
    note: str | None = None


class Recorder:
    """The figures of one benchmark run, written into the figures file by :meth:`finish`."""

    def __init__(self, bench: str, script: str) -> None:
        self.bench = bench
        self.script = str(Path(script).resolve().relative_to(ROOT))
        self.figures: list[Figure] = []
        self.failures: list[str] = []

    def add(
        self,
        name: str,
        value: float,
        unit: str,
        target: tuple[str, float] | None = None,
        note: str | None = None,
    ) -> bool:
        """Record ``<bench>.<name>``; ``target`` as ``("<=", 0.15)``.  Whether it was met."""
        figure = Figure(f"{self.bench}.{name}", float(value), unit, note=note)
        if target is not None:
            op, bound = target
            figure.target = {"op": op, "value": bound}
            figure.met = bool(COMPARISONS[op](value, bound))
            if not figure.met:
                self.failures.append(f"{figure.name} = {value:g} {unit} (target {op} {bound:g})")
        self.figures.append(figure)
        return figure.met is not False

    def fail(self, reason: str) -> None:
        """A check that is no figure failed (two runs disagree, a page raised)."""
        self.failures.append(reason)

    def entry(self) -> dict[str, Any]:
        """This run as the file holds it."""
        settings = {name: value for name, (value, _) in _SETTINGS.items()}
        return {
            "script": self.script,
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": machine(),
            "settings": settings,
            "quick": any(value != default for value, default in _SETTINGS.values()),
            "passed": not self.failures,
            "failures": self.failures,
            "figures": [asdict(figure) for figure in self.figures],
        }

    def finish(self) -> int:
        """Write the entry, say each missed target; 1 when one was missed, else 0."""
        update_entry(self.bench, self.entry())
        for reason in self.failures:
            print(f"MISSED: {reason}")
        print(f"figures of {self.bench} recorded in {figures_path()}")
        return 1 if self.failures else 0


def read_figures(path: Path | None = None) -> dict[str, Any]:
    """The figures file, or an empty one."""
    path = path or figures_path()
    if not path.exists():
        return {"format": FORMAT, "benchmarks": {}}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def update_entry(bench: str, entry: dict[str, Any] | None, merge: bool = False) -> None:
    """Replace (or with ``merge``, update) one benchmark's entry; ``None`` removes it."""
    path = figures_path()
    document = read_figures(path)
    benchmarks = document.setdefault("benchmarks", {})
    if entry is None:
        benchmarks.pop(bench, None)
    elif merge and bench in benchmarks:
        benchmarks[bench].update(entry)
    else:
        benchmarks[bench] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


def main_of(run: Callable[[Recorder], None], bench: str, script: str) -> None:
    """Run a benchmark's ``run(recorder)``, record its figures, exit 1 on a missed target."""
    recorder = Recorder(bench, script)
    run(recorder)
    sys.exit(recorder.finish())

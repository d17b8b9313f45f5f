"""A suite's workload file read once, in the parent: its workloads, their reports' names.

FILE defines ``WORKLOADS = {name: workload}``, a workload being a zero-argument callable
that makes its calls, or the path of a script (relative to FILE).  Importing FILE is the
user's code running: any error it raises is one line, and the suite does not start.
"""

from __future__ import annotations

import dataclasses
import os
import re
import runpy
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symdebug.model import json_text
from symdebug.model.suite_types import WorkloadResult

#: How long one workload may run (seconds), by default.
TIMEOUT = 900.0


class SuiteError(Exception):
    """The suite cannot start: the file, its ``WORKLOADS`` or the cluster (status 2)."""


@dataclass(slots=True)
class Workload:
    """One workload: its name, its report's file name, and the scripts it runs (if any)."""

    name: str
    report: str
    script: str | None = None


@dataclass(slots=True)
class Suite:
    """What a suite run needs: the file, its workloads, the output folder, the options."""

    file: Path
    workloads: list[Workload]
    out: Path
    timeout: float = TIMEOUT
    env: dict[str, str] = field(default_factory=dict)
    #: The workload processes running now (stopped on Ctrl-C).
    running: set[subprocess.Popen[bytes]] = field(default_factory=set)

    def sources(self) -> dict[str, str]:
        """FILE and the scripts its workloads name, by path relative to FILE's folder."""
        files = [self.file.name, *(w.script for w in self.workloads if w.script)]
        return {name: (self.file.parent / name).read_text(encoding="utf-8") for name in files}


def _report_name(name: str, taken: set[str]) -> str:
    """A file name for the workload's report: its name's safe characters, made unique."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "workload"
    candidate, number = stem, 1
    while candidate.lower() in taken:
        number += 1
        candidate = f"{stem}-{number}"
    taken.add(candidate.lower())
    return f"{candidate}.html"


def _script(value: Any, file: Path) -> str | None:
    """A workload given as a script path: the path, checked; None for a callable."""
    if callable(value):
        return None
    if not isinstance(value, str | os.PathLike) or not (file.parent / value).is_file():
        raise SuiteError(f"{file}: a workload is a callable or a script path, not {value!r}")
    return os.fspath(value)


def first_line(error: BaseException) -> str:
    """An error in one line: ``RuntimeError: its message's first line``."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")


def read_workloads(file: Path) -> list[Workload]:
    """The workloads FILE defines, in its order; a clear error when it has none."""
    if not file.is_file():
        raise SuiteError(f"{file}: no such workload file")
    try:
        namespace = runpy.run_path(str(file), run_name="symdebug_suite")
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's file: say it in one line
        raise SuiteError(f"{file}: importing it raised {first_line(error)}") from None
    found = namespace.get("WORKLOADS")
    if not isinstance(found, dict) or not found:
        raise SuiteError(f"{file} defines no WORKLOADS (a dict: name -> callable or script)")
    taken: set[str] = set()
    return [
        Workload(str(n), _report_name(str(n), taken), _script(v, file)) for n, v in found.items()
    ]


#: Where rows are written, under the output folder.
RESULTS = ".results"


def result_path(out: Path, report: str) -> Path:
    """Where the row of the workload whose report is ``report`` lies."""
    return out / RESULTS / f"{Path(report).stem}.json"


def write_row(out: Path, report: str, row: WorkloadResult) -> None:
    """Write a workload's row beside its report, whole or not at all."""
    target = result_path(out, report)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(json_text.dumps(dataclasses.asdict(row)))
    partial.replace(target)  # atomic: a row on disk is whole

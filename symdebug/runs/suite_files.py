"""A suite's workload file read once, in the parent: its workloads, their reports' names.

FILE defines ``WORKLOADS = {name: workload}``, a workload being a zero-argument callable
that makes its calls, or the path of a script (relative to FILE).  Importing FILE is the
user's code running: any error it raises is one line, and the suite does not start.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import runpy
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
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
    #: The workloads started in this run (a row on disk of another is an earlier run's).
    started: set[str] = field(default_factory=set)

    def sources(self) -> dict[str, str]:
        """FILE and the scripts its workloads name, by where a Dask worker writes them."""
        sources = {self.file.name: self.file.read_text(encoding="utf-8")}
        for script in self.scripts():
            text = (self.file.parent / script).read_text(encoding="utf-8")
            sources[shipped_name(script)] = text
        return sources

    def shipped(self) -> dict[str, str]:
        """Each script whose path would leave a worker's folder, and where it is written."""
        return {s: shipped_name(s) for s in self.scripts() if shipped_name(s) != s}

    def scripts(self) -> list[str]:
        """The scripts the workloads name, as FILE gives them."""
        return list(dict.fromkeys(w.script for w in self.workloads if w.script))


#: The variable that tells a Dask worker's workload where each shipped script was written.
SHIPPED_SCRIPTS = "SYMDEBUG_SUITE_SHIPPED"


def shipped_name(script: str) -> str:
    """Where a script is written in a Dask worker's folder: never outside it.

    A path inside FILE's folder keeps its place; one that leaves it (``../x.py``) or is
    absolute is written under ``_shipped/``, with a digest of the path it was given.
    """
    path = PurePosixPath(Path(script).as_posix())
    if not path.is_absolute() and ".." not in path.parts:
        return str(path)
    digest = hashlib.sha1(script.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return f"_shipped/{digest.hexdigest()[:8]}-{path.name}"


#: The longest stem of a report's file name (a file system allows 255 bytes in all).
_MAX_STEM = 80


def _report_name(name: str, taken: set[str]) -> str:
    """A file name for the workload's report: its name's safe characters, made unique.

    A long name is cut and keeps a digest of the whole, so two long names stay apart.
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "workload"
    if len(stem) > _MAX_STEM:
        digest = hashlib.sha1(name.encode("utf-8", "surrogatepass"), usedforsecurity=False)
        stem = f"{stem[: _MAX_STEM - 9]}-{digest.hexdigest()[:8]}"
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
    """An error in one line: ``RuntimeError: its message's first line``, bounded."""
    lines = str(error).strip().splitlines()
    return bounded(f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": "))


#: The most characters of an error a row keeps (its end: where Python says what failed).
MAX_ERROR = 2000


def bounded(text: str, limit: int = MAX_ERROR) -> str:
    """``text``, or its last ``limit`` characters with how many were cut before them."""
    if len(text) <= limit:
        return text
    return f"[{len(text) - limit:,} characters cut] ...{text[-limit:]}"


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
    _distinct_names(file, list(found))
    taken: set[str] = set()
    return [
        Workload(str(n), _report_name(str(n), taken), _script(v, file)) for n, v in found.items()
    ]


def _distinct_names(file: Path, keys: list[Any]) -> None:
    """Keys that read alike (``1`` and ``"1"``) would be one row: refused, naming them."""
    seen: dict[str, Any] = {}
    for key in keys:
        other = seen.setdefault(str(key), key)
        if other is not key:
            raise SuiteError(
                f"{file}: WORKLOADS keys {other!r} and {key!r} are both named {str(key)!r}; "
                "give each workload a name of its own"
            )


def workload_named(workloads: dict[Any, Any], name: str) -> Any:
    """The workload whose key reads ``name`` (a key need not be a string)."""
    return next(value for key, value in workloads.items() if str(key) == name)


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

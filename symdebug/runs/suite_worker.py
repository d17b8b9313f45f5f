"""The child process of a suite sweep: one workload under capture, its row and report written.

``python -m symdebug.runs.suite_worker FILE NAME OUT REPORT`` imports the workload file (its
folder first on ``sys.path``, as ``python FILE`` would have it), runs ``WORKLOADS[NAME]``
under :func:`symdebug.capture`, and writes ``OUT/REPORT`` (the HTML report) and the row
(``OUT/.results/<REPORT stem>.json``) last, so a row on disk means a finished workload.  A
workload that raises still gets its row, with the error; one that crashes the process
leaves no row, and the parent says so.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

from symdebug.live import capture
from symdebug.queries.suite import workload_result
from symdebug.runs.suite_files import SHIPPED_SCRIPTS, bounded, workload_named, write_row


def _call(workload: Any, folder: Path) -> None:
    """A callable is called; a path is run as a script (relative to the workload file).

    ``sys.exit(0)`` (or ``sys.exit()``) ends either as a success, as it would end a script.
    """
    try:
        _run(workload, folder)
    except SystemExit as exit_:
        if exit_.code not in (None, 0):
            raise


def _run(workload: Any, folder: Path) -> None:
    if callable(workload):
        workload()
        return
    shipped = json.loads(os.environ.get(SHIPPED_SCRIPTS, "{}"))  # on a Dask worker
    script = folder / shipped.get(os.fspath(workload), os.fspath(workload))
    saved = sys.argv
    sys.argv = [str(script)]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = saved


def _error(error: BaseException) -> str:
    """The error's last line, as Python prints it (``ValueError: bad size``), bounded."""
    return bounded(traceback.format_exception_only(error)[-1].strip())


def run_workload(file: Path, name: str, out: Path, report: str) -> None:
    """Run one workload under capture; write its report, then its row."""
    workloads: dict[Any, Any] = runpy.run_path(str(file), run_name="symdebug_suite")["WORKLOADS"]
    error = None
    with capture() as session:
        try:
            _call(workload_named(workloads, name), file.parent)
        except (Exception, SystemExit) as raised:  # noqa: BLE001 - the row says what it was
            traceback.print_exc()
            error = _error(raised)
    row = workload_result(name, session.facts)
    row.report, row.error = report, error
    session.to_html(out / report)
    write_row(out, report, row)


def main(argv: list[str]) -> int:
    """``FILE NAME OUT REPORT``: run the workload; status 0 once its row is written."""
    file, name, out, report = argv
    run_workload(Path(file).resolve(), name, Path(out).resolve(), report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

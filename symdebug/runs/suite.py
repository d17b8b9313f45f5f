"""``symdebug suite FILE``: every workload of a file, each in a fresh process under capture.

FILE defines ``WORKLOADS = {name: workload}``, a workload being a zero-argument callable
that makes its calls, or the path of a script (relative to FILE).  Each runs in a process
of its own (:mod:`symdebug.runs.suite_worker`): serially, ``jobs`` at a time, or on the
workers of a Dask cluster (FILE and its scripts are shipped to them).  Every way writes the
same ``DIR/suite.json``, one report per workload and ``DIR/index.html``.  A workload that
raises, crashes or times out is a row with its error; the others still run.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
from collections.abc import Container, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from tqdm import tqdm

from symdebug.dask_client import DASK_CONNECT_SECONDS
from symdebug.model.suite_types import SuiteFacts, WorkloadResult, suite_document
from symdebug.renderers.suite_html import write_suite_html
from symdebug.runs.suite_dask import on_dask
from symdebug.runs.suite_files import (
    RESULTS,
    TIMEOUT,
    Suite,
    SuiteError,
    Workload,
    read_workloads,
    result_path,
)
from symdebug.runs.suite_local import failed_row, read_row, run_local, stop
from symdebug.runs.suite_stop import SuiteStoppedError, seconds, stopped_by_sigterm

__all__ = ["HF_SUITE_FILE", "SuiteError", "SuiteStoppedError", "run_suite", "write_outputs"]

#: The built-in Hugging Face suite's workload file (``symdebug suite --hf``).
HF_SUITE_FILE = str(Path(__file__).with_name("hf_suite.py"))


def _pooled(suite: Suite, todo: list[Workload], jobs: int) -> Iterator[WorkloadResult]:
    """``jobs`` workloads at a time, each in its own process (the threads only wait)."""
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(run_local, suite, w) for w in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:  # Ctrl-C, or the caller stopped: stop every workload started
            for future in futures:
                future.cancel()
            for process in list(suite.running):
                stop(process)
            raise


def _dask(
    suite: Suite, todo: list[Workload], address: str, timeout: float
) -> Iterator[WorkloadResult]:
    return on_dask(suite, todo, address, timeout)


def _finished(suite: Suite, among: Container[str] | None = None) -> dict[str, WorkloadResult]:
    """Rows on disk of workloads that finished (``--resume``; errors run again).

    ``among``: only these workloads' rows (those this run started, when it was stopped).
    """
    rows = {}
    for workload in suite.workloads:
        if among is not None and workload.name not in among:
            continue
        path = result_path(suite.out, workload.report)
        try:
            row = read_row(path) if path.is_file() else None
        except (ValueError, TypeError, OSError):
            row = None  # a damaged row ([], "x", null, not JSON): run it again
        if row is not None and row.error is None and row.name == workload.name:
            rows[workload.name] = row
    return rows


def _progress(
    rows: Iterable[WorkloadResult], total: int, done: int, shown: bool
) -> Iterator[WorkloadResult]:
    with tqdm(total=total, initial=done, unit="workload", desc="suite", disable=not shown) as bar:
        for row in rows:
            bar.set_postfix_str(f"{row.name}{' (error)' if row.error else ''}", refresh=False)
            bar.update()
            yield row


def _torch_version() -> str:
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return ""


def write_outputs(facts: SuiteFacts, out: Path) -> Path:
    """``suite.json`` and ``index.html`` (the viewer's matrix); return the index's path."""
    document = json.dumps(suite_document(facts), indent=2, ensure_ascii=False)
    (out / "suite.json").write_text(document + "\n", encoding="utf-8")
    return write_suite_html(facts, out / "index.html")


def run_suite(
    file: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    jobs: int = 1,
    dask: str | None = None,
    dask_timeout: float = DASK_CONNECT_SECONDS,
    resume: bool = False,
    timeout: float = TIMEOUT,
    env: dict[str, str] | None = None,
    progress: bool = True,
) -> SuiteFacts:
    """Run every workload of ``file``, each in a fresh process under capture.

    Parameters
    ----------
    file
        A Python file defining ``WORKLOADS = {name: callable or script path}``.
    out
        The folder for ``suite.json``, ``index.html`` and one report per workload.
    jobs
        Workloads run at once on this machine.
    dask
        A Dask scheduler's address: its workers run the workloads instead (they need
        symdebug; the file and its scripts are shipped to them).
    dask_timeout
        Seconds to wait for the scheduler at ``dask`` to answer (30).
    resume
        Skip workloads whose rows are in ``out`` already (a row with an error runs again).
    timeout
        Seconds one workload may run before it is stopped (its row then says so).
    env
        Environment variables for the workloads' processes.
    progress
        Show a progress bar that advances per workload.

    Returns
    -------
    SuiteFacts
        One row per workload, in the file's order.

    Raises
    ------
    SuiteError
        The file cannot be read, defines no workloads, or no Dask scheduler answered.
    """
    folder = Path(out).resolve()
    workloads = read_workloads(Path(file))
    suite = Suite(Path(file).resolve(), workloads, folder, seconds(timeout), env or {})
    (folder / RESULTS).mkdir(parents=True, exist_ok=True)
    rows = _finished(suite) if resume else {}
    todo = [w for w in suite.workloads if w.name not in rows]
    try:
        with stopped_by_sigterm():
            ran = _dask(suite, todo, dask, dask_timeout) if dask else _pooled(suite, todo, jobs)
            for row in _progress(ran, len(suite.workloads), len(rows), progress):
                rows[row.name] = row
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the workers are stopped already
        said = stop.args[0] if stop.args else "SIGINT"
        finished = {**_finished(suite, suite.started), **rows}  # rows written, not yet read
        facts = _facts(suite, finished, f"not finished: the suite was stopped ({said})")
        write_outputs(facts, folder)
        raise SuiteStoppedError(facts, said) from None
    facts = _facts(suite, rows, "")
    write_outputs(facts, folder)
    return facts


def _facts(suite: Suite, rows: dict[str, WorkloadResult], unfinished: str) -> SuiteFacts:
    """The rows in the file's order; a workload without a row is one with ``unfinished``."""
    found = [rows.get(w.name) or failed_row(w, unfinished) for w in suite.workloads]
    return SuiteFacts(found, torch=_torch_version())

"""One workload of a suite run on a Dask worker: the files shipped, the same worker there.

``remote_workload`` runs on the worker (which needs symdebug): it writes the workload file
under its own name, and the scripts it names, in a temporary folder, runs the workload as a
local run does, and returns the row and the report, which the parent writes.  Rows are
alike wherever they ran.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from symdebug.dask_client import DASK_CONNECT_SECONDS, DaskConnectError, connect_dask
from symdebug.model.suite_types import WorkloadResult, workload_from_dict
from symdebug.runs.suite_files import (
    SHIPPED_SCRIPTS,
    Suite,
    SuiteError,
    Workload,
    first_line,
    write_row,
)
from symdebug.runs.suite_local import failed_row, run_local


def remote_workload(
    sources: dict[str, str], file_name: str, workload: dict[str, Any], suite: dict[str, Any]
) -> tuple[dict[str, Any], bytes]:
    """On a Dask worker: the shipped files in a folder of their own, the workload run there.

    Returns the row and the report's bytes; the folder is gone afterwards.  The workload
    file keeps its name, so rows are alike wherever they ran.
    """
    with tempfile.TemporaryDirectory(prefix="symdebug-suite-") as folder:
        root = Path(folder).resolve()
        for relative, text in sources.items():
            target = inside(root, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        env = {**suite["env"], SHIPPED_SCRIPTS: json.dumps(suite["shipped"])}
        here = Suite(inside(root, file_name), [], root / "out", suite["timeout"], env)
        chosen = Workload(**workload)
        row = run_local(here, chosen)
        report = here.out / chosen.report
        return dataclasses.asdict(row), report.read_bytes() if report.is_file() else b""


def inside(root: Path, relative: str) -> Path:
    """``root / relative``, refused where it would lie outside ``root``.

    A worker writes only inside its own temporary folder.
    """
    target = (root / relative).resolve()
    if not target.is_relative_to(root) or target == root:
        raise ValueError(f"{relative!r} would be written outside the worker's folder")
    return target


def _client(address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``; a clear error when none answers."""
    try:
        return connect_dask(address, timeout)
    except DaskConnectError as error:
        raise SuiteError(str(error)) from None


def _received(suite: Suite, workload: Workload, future: Any) -> WorkloadResult:
    """A Dask result written here as a local run writes it: the report, then the row."""
    try:
        row, report = future.result()
    except Exception as error:  # noqa: BLE001 - the worker died: that workload's row says so
        return failed_row(workload, f"the Dask worker failed: {first_line(error)}")
    if report:
        (suite.out / workload.report).write_bytes(report)
    result = workload_from_dict(row)
    if result.error is None:
        write_row(suite.out, workload.report, result)
    return result


def on_dask(
    suite: Suite, todo: list[Workload], address: str, timeout: float = DASK_CONNECT_SECONDS
) -> Iterator[WorkloadResult]:
    """Each workload on a worker of the cluster at ``address``, rows as they finish.

    The client connects at once, waiting at most ``timeout`` seconds: an address where no
    scheduler answers is the suite's error before any progress is shown.
    """
    return _rows(suite, todo, _client(address, timeout))


def _rows(suite: Suite, todo: list[Workload], client: Any) -> Iterator[WorkloadResult]:
    """The workloads submitted to ``client``, rows as they finish; the client closed after."""
    # lazy: distributed is an optional dependency, for --dask only
    from distributed import as_completed  # noqa: PLC0415

    completed: Any = as_completed  # distributed ships no type hints
    try:
        sources = suite.sources()
        options = {"timeout": suite.timeout, "env": suite.env, "shipped": suite.shipped()}
        futures = {
            client.submit(
                remote_workload, sources, suite.file.name, dataclasses.asdict(w), options,
                pure=False,
            ): w
            for w in todo
        }  # fmt: skip
        for future in completed(futures):
            yield _received(suite, futures[future], future)
    finally:
        client.close()

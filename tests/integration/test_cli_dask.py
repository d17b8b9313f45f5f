"""``--dask ADDRESS`` on the command line: ``python -m symdebug summary|report DIR`` in a
process of its own, pointed at a real Dask ``LocalCluster`` started here, says exactly what
the same command says with ``--jobs 1`` (the serial path), and the cluster's scheduler did
read one log per rank (its own count of the tasks that finished).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

RANKS = Path(__file__).resolve().parents[1] / "data" / "traces" / "multi_rank_logs"
LOGS = sorted(p.name for p in RANKS.iterdir() if ".log" in p.name)
#: The function each log is read by, named as Dask names its tasks.
READ_TASK = "read_or_why"


@pytest.fixture
def cluster() -> Iterator[Any]:
    """A Dask cluster of two worker threads, reachable over TCP from another process."""
    distributed = pytest.importorskip("distributed")
    # Threads, not processes: a worker process (its nanny) would import this process's main
    # module; tcp://, not inproc://, which only this process could reach.
    started = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
        host="127.0.0.1", dashboard_address=None,
    )  # fmt: skip
    try:
        yield started
    finally:
        started.close()


def symdebug_cli(*args: str) -> str:
    """What ``python -m symdebug ARGS`` prints, after checking it succeeded."""
    command = [sys.executable, "-m", "symdebug", *args]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout


def finished_reads(cluster: Any) -> int:
    """How many read tasks the scheduler saw finish (their results held in memory)."""
    prefix = cluster.scheduler.task_prefixes.get(READ_TASK)
    return 0 if prefix is None else int(prefix.state_counts["memory"])


def test_summary_on_dask_is_the_serial_summary(cluster: Any) -> None:
    serial = symdebug_cli("summary", str(RANKS), "--jobs", "1")
    assert finished_reads(cluster) == 0
    on_dask = symdebug_cli("summary", str(RANKS), "--dask", cluster.scheduler_address)
    assert on_dask == serial
    assert finished_reads(cluster) == len(LOGS) == 4
    assert all(f"=== rank {rank}" in serial for rank in range(len(LOGS)))


def test_report_on_dask_writes_the_serial_pages(cluster: Any, tmp_path: Path) -> None:
    symdebug_cli("report", str(RANKS), "--jobs", "1", "-o", str(tmp_path / "serial/job.html"))
    on_dask = tmp_path / "dask/job.html"
    symdebug_cli("report", str(RANKS), "--dask", cluster.scheduler_address, "-o", str(on_dask))
    pages = sorted(p.name for p in (tmp_path / "serial").iterdir())
    assert pages == sorted(p.name for p in on_dask.parent.iterdir())
    assert "job.ranks.html" in pages and len(pages) > len(LOGS)
    for page in pages:
        serial_page = (tmp_path / "serial" / page).read_bytes()
        assert (on_dask.parent / page).read_bytes() == serial_page, page
    assert finished_reads(cluster) == len(LOGS)

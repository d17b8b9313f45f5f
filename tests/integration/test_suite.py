"""``symdebug suite``: the same ``suite.json`` serially, with ``--jobs 2`` and on a Dask
``LocalCluster`` started here; a crash, a timeout and an error are rows, ``--resume`` skips
what is done, and bad input is a clear error (issue 29, point 3).

Each row's counts are checked against torch's own words: the recompile reasons torch logs
(``TORCH_LOGS=recompiles``) in a plain run of the same workload.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symdebug.cli import main

SUITES = Path(__file__).resolve().parents[1] / "data" / "suites"
SMALL = SUITES / "small_suite.py"


def _suite(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``symdebug suite ARGS`` in a process of its own, as a user runs it."""
    command = [sys.executable, "-m", "symdebug", "suite", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def _rows(out: Path) -> dict[str, dict[str, object]]:
    document = json.loads((out / "suite.json").read_text())
    assert document["suite_version"] == 1
    return {row["name"]: row for row in document["workloads"]}


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("serial")
    result = _suite(str(SMALL), "-o", str(out))
    assert result.returncode == 1, result.stderr  # the `raises` workload failed
    return out


def _torch_recompiles(workload: str) -> int:
    """How many recompiles torch itself logs for a plain run of the workload."""
    code = f"import small_suite; small_suite.WORKLOADS[{workload!r}]()"
    env = dict(os.environ, TORCH_LOGS="recompiles")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=SUITES, env=env, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    return run.stderr.count("Recompiling function")


def test_rows_agree_with_torch(serial: Path) -> None:
    rows = _rows(serial)
    assert list(rows) == list(_workload_names())
    for name in ("int_loop", "size_branch", "print_break"):
        assert rows[name]["recompiles"] == _torch_recompiles(name), name
    assert rows["int_loop"]["causes"] == {"int_specialized": 1, "static_by_default": 1}
    assert rows["size_branch"]["causes"] == {"static_by_default": 1, "user_branch": 1}
    (loop,) = rows["int_loop"]["specializations"]  # type: ignore[misc]
    assert (loop["user_name"], loop["cause"], loop["values"]) == ("n", "int_specialized", [2, 3])
    assert loop["line"].startswith("small_suite.py:") and loop["code"] == "for _ in range(n):"
    assert rows["print_break"]["graph_breaks"] == 1
    assert rows["script"]["compiles"] >= 1 and rows["script"]["error"] is None
    assert rows["raises"]["error"].startswith("ValueError: small_suite.raises")
    assert rows["raises"]["compiles"] == 1  # what ran before the error is kept
    for name, row in rows.items():
        assert (serial / str(row["report"])).is_file(), name
    index = (serial / "index.html").read_text()
    assert '<script type="application/json" id="symdebug-data">' in index


def _workload_names() -> list[str]:
    return ["int_loop", "size_branch", "print_break", "script", "raises"]


def test_jobs_give_the_same_suite_json(serial: Path, tmp_path: Path) -> None:
    result = _suite(str(SMALL), "-o", str(tmp_path), "--jobs", "2")
    assert result.returncode == 1, result.stderr
    assert (tmp_path / "suite.json").read_text() == (serial / "suite.json").read_text()


@pytest.mark.slow
def test_dask_gives_the_same_suite_json(serial: Path, tmp_path: Path) -> None:
    from distributed import LocalCluster

    # Worker threads: a worker process (its nanny) would import this process's main module,
    # which other tests' IPython shells replace.  Each workload still runs in a process of
    # its own, from the file the worker was shipped, in a folder of the worker's.
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        assert main(["suite", str(SMALL), "-o", str(tmp_path), "--dask", address]) == 1
    assert (tmp_path / "suite.json").read_text() == (serial / "suite.json").read_text()
    assert (tmp_path / "int_loop.html").is_file()


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The crashing suite's output folder and the command's stderr."""
    out = tmp_path_factory.mktemp("crashed")
    result = _suite(str(SUITES / "crashing_suite.py"), "-o", str(out), "--jobs", "2")
    assert result.returncode == 1
    return out, result.stderr


def test_a_crash_is_a_row_and_the_rest_completes(crashed: tuple[Path, str]) -> None:
    out, stderr = crashed
    rows = _rows(out)
    assert list(rows) == ["before", "crashes", "after"]
    assert rows["crashes"]["error"].startswith("crashed (exit status 3)")
    assert rows["before"]["compiles"] == rows["after"]["compiles"] == 2
    assert rows["before"]["error"] is None and rows["after"]["error"] is None
    assert "crashes: crashed (exit status 3)" in stderr


def test_a_timeout_is_a_row(tmp_path: Path) -> None:
    file = tmp_path / "slow.py"
    file.write_text(
        "import time\n"
        "def sleeps():\n    time.sleep(120)\n"
        "def quick():\n    pass\n"
        "WORKLOADS = {'sleeps': sleeps, 'quick': quick}\n"
    )
    started = time.monotonic()
    # 30 s: a busy machine's worker still starts and imports torch in time for ``quick``.
    result = _suite(str(file), "-o", str(tmp_path / "out"), "--timeout", "30")
    assert time.monotonic() - started < 110
    rows = _rows(tmp_path / "out")
    assert rows["sleeps"]["error"] == "timed out after 30 s"
    assert rows["quick"]["error"] is None and result.returncode == 1


def test_resume_runs_only_what_is_missing(crashed: tuple[Path, str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(crashed[0], out)
    done = {p.name: p.stat().st_mtime_ns for p in (out / ".results").glob("*.json")}
    assert sorted(done) == ["after.json", "before.json"]  # a crash leaves no row
    (out / ".results" / "after.json").unlink()
    again = _suite(str(SUITES / "crashing_suite.py"), "-o", str(out), "--resume")
    assert again.returncode == 1  # the crash is run again, and crashes again
    assert (out / ".results" / "before.json").stat().st_mtime_ns == done["before.json"]
    assert (out / ".results" / "after.json").is_file()
    assert list(_rows(out)) == ["before", "crashes", "after"]
    assert "before" not in again.stderr and "crashes: crashed" in again.stderr


def test_a_file_that_raises_at_import_is_one_line(tmp_path: Path) -> None:
    result = _suite(str(SUITES / "raises_at_import.py"), "-o", str(tmp_path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "importing it raised" in lines[0], result.stderr
    assert not (tmp_path / "suite.json").exists()


def test_no_workloads_and_no_file_are_usage_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    result = _suite(str(empty), "-o", str(tmp_path / "out"))
    assert result.returncode == 2 and "defines no WORKLOADS" in result.stderr
    result = _suite(str(tmp_path / "missing.py"), "-o", str(tmp_path / "out"))
    assert result.returncode == 2 and "no such workload file" in result.stderr
    assert _suite("-o", str(tmp_path / "out")).returncode == 2


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_dask_address_that_never_answers_is_a_clear_error(tmp_path: Path) -> None:
    started = time.monotonic()
    address = f"tcp://127.0.0.1:{_closed_port()}"
    wait = ("--dask-timeout", "5")  # the default (30 s) only waits longer for the same answer
    result = _suite(str(SMALL), "-o", str(tmp_path), "--dask", address, *wait, timeout=120)
    assert time.monotonic() - started < 40
    assert result.returncode == 2
    assert f"no Dask scheduler answered at {address}" in result.stderr

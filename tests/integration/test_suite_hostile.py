"""``symdebug suite`` keeps every result, whatever its workloads do (issue 46, points 6-13).

Each suite runs as a user runs it: ``python -m symdebug suite FILE`` in a process of its
own, its workloads in fresh processes under capture; signals are real signals, the Dask
cluster a real ``LocalCluster`` started here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest

HOSTILE = textwrap.dedent(
    """
    import os
    import sys
    import threading
    import time


    def huge_error():
        raise ValueError("x" * 5_000_000)


    def exits_zero():
        sys.exit(0)


    def reads_stdin():
        sys.stdin.read()


    def forks_a_grandchild():
        if os.fork() == 0:  # the grandchild: says where it is, then stays
            with open(os.environ["SUITE_GRANDCHILD"], "w") as file:
                file.write(str(os.getpid()))
            time.sleep(600)
            os._exit(0)


    def cannot_exit():
        threading.Thread(target=time.sleep, args=(600,)).start()  # not a daemon


    WORKLOADS = {
        "huge_error": huge_error,
        "n" * 300: exits_zero,
        "reads_stdin": reads_stdin,
        "forks_a_grandchild": forks_a_grandchild,
        "cannot_exit": cannot_exit,
    }
    """
)


def suite(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symdebug", "suite", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, **(env or {})},
        check=False,
    )


def rows(out: Path) -> dict[str, dict[str, object]]:
    return {r["name"]: r for r in json.loads((out / "suite.json").read_text())["workloads"]}


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str], int]:
    root = tmp_path_factory.mktemp("hostile")
    (root / "hostile.py").write_text(HOSTILE)
    marker = root / "grandchild.pid"
    done = suite(
        root / "hostile.py", "-o", root / "out", "--jobs", "2", "--timeout", "120",
        env={"SUITE_GRANDCHILD": str(marker)},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]
    return root / "out", done, int(marker.read_text())


def test_a_huge_error_is_kept_as_a_bounded_tail(
    hostile: tuple[Path, subprocess.CompletedProcess[str], int],
) -> None:
    out, done, _ = hostile
    error = str(rows(out)["huge_error"]["error"])
    assert error.startswith("[") and "characters cut]" in error and error.endswith("xxx")
    assert len(error) < 3000
    assert len(done.stderr) < 20_000 and (out / "suite.json").stat().st_size < 200_000
    assert (out / "index.html").stat().st_size < 5_000_000


def test_a_long_name_has_a_row_and_a_report(
    hostile: tuple[Path, subprocess.CompletedProcess[str], int],
) -> None:
    out, _, _ = hostile
    row = rows(out)["n" * 300]
    assert row["error"] is None  # sys.exit(0) in a callable is a success
    report = out / str(row["report"])
    assert report.is_file() and len(report.name) < 100


def test_stdin_is_closed_and_a_forked_grandchild_is_stopped(
    hostile: tuple[Path, subprocess.CompletedProcess[str], int],
) -> None:
    out, _, grandchild = hostile
    found = rows(out)
    assert found["reads_stdin"]["error"] is None
    assert found["forks_a_grandchild"]["error"] is None
    assert not _alive(grandchild)


def test_a_workload_that_finishes_but_cannot_exit_keeps_its_row(
    hostile: tuple[Path, subprocess.CompletedProcess[str], int], tmp_path: Path
) -> None:
    out, _, _ = hostile
    row = rows(out)["cannot_exit"]
    assert str(row["error"]).startswith("timed out after 120 s: it finished its calls")
    assert row["report"]  # its report and counts are kept
    on_disk = json.loads(next((out / ".results").glob("cannot_exit.json")).read_text())
    assert on_disk["error"] == row["error"]  # --resume runs it again


QUICK = textwrap.dedent(
    """
    def quick():
        pass


    WORKLOADS = {"a": quick, "b": quick, "c": quick}
    """
)


def test_resume_rows_that_are_no_rows_run_again(tmp_path: Path) -> None:
    (tmp_path / "quick.py").write_text(QUICK)
    out = tmp_path / "out"
    assert suite(tmp_path / "quick.py", "-o", out, "--jobs", "2").returncode == 0
    for name, text in zip("abc", ("[]", '"x"', "null"), strict=True):
        (out / ".results" / f"{name}.json").write_text(text)
    done = suite(tmp_path / "quick.py", "-o", out, "--resume", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert {n: r["error"] for n, r in rows(out).items()} == {"a": None, "b": None, "c": None}


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf"])
def test_a_timeout_that_is_no_duration_is_refused(tmp_path: Path, timeout: str) -> None:
    (tmp_path / "quick.py").write_text(QUICK)
    done = suite(tmp_path / "quick.py", "-o", tmp_path / "out", f"--timeout={timeout}")
    assert done.returncode == 2 and "timeout" in done.stderr, done.stderr


def test_keys_that_read_alike_are_refused(tmp_path: Path) -> None:
    (tmp_path / "twice.py").write_text('def f():\n    pass\n\n\nWORKLOADS = {1: f, "1": f}\n')
    done = suite(tmp_path / "twice.py", "-o", tmp_path / "out")
    assert done.returncode == 2
    assert "WORKLOADS keys 1 and '1' are both named '1'" in done.stderr


SLOW = textwrap.dedent(
    """
    import os
    import time


    def quick():
        pass


    def slow():
        with open(os.environ["SUITE_SLOW"], "w") as file:
            file.write(str(os.getpid()))
        time.sleep(600)


    WORKLOADS = {"quick": quick, "slow": slow}
    """
)


@pytest.mark.parametrize(("sent", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_workers_and_writes_what_finished(
    tmp_path: Path, sent: signal.Signals, status: int
) -> None:
    (tmp_path / "slow.py").write_text(SLOW)
    out, pid_file = tmp_path / "out", tmp_path / "slow.pid"
    command = [sys.executable, "-m", "symdebug", "suite", str(tmp_path / "slow.py")]
    process = subprocess.Popen(
        [*command, "-o", str(out), "--jobs", "2"],
        env={**os.environ, "SUITE_SLOW": str(pid_file)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(lambda: pid_file.is_file() and (out / ".results" / "quick.json").is_file())
        process.send_signal(sent)
        _, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == status, stderr
    assert "Traceback" not in stderr and f"suite stopped by {sent.name}" in stderr
    found = rows(out)
    assert found["quick"]["error"] is None
    assert found["slow"]["error"] == f"not finished: the suite was stopped ({sent.name})"
    assert not _alive(int(pid_file.read_text()))


def _wait_for(ready: object, seconds: float = 300) -> None:
    assert callable(ready)
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, "the suite never got that far"
        time.sleep(0.2)


def test_dask_writes_only_inside_the_workers_folder(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    up = f"up-{uuid.uuid4().hex}.py"  # ``../up-*.py`` from the worker's folder: its parent
    (tmp_path / "suite").mkdir()
    outside = tmp_path / "elsewhere.py"
    outside.write_text("import torch\nprint(torch.ones(1))\n")
    before = outside.stat().st_mtime_ns
    (tmp_path / up).write_text("print('up')\n")
    relative = os.path.relpath(tmp_path / up, tmp_path / "suite")
    (tmp_path / "suite" / "paths.py").write_text(
        f"WORKLOADS = {{'absolute': {str(outside)!r}, 'up': {relative!r}}}\n"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None
    ) as cluster:
        done = suite(
            tmp_path / "suite" / "paths.py",
            "-o",
            tmp_path / "out",
            "--dask",
            cluster.scheduler_address,
        )
    assert done.returncode == 0, done.stderr
    assert outside.stat().st_mtime_ns == before  # never written in place
    assert not (Path(tempfile.gettempdir()) / up).exists()
    found = rows(tmp_path / "out")
    assert found["absolute"]["compiles"] == 0 and found["up"]["error"] is None

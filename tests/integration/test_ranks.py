"""A real distributed job (torchrun, 3 CPU ranks, gloo) where rank 2 alone sees a batch of
7: its logs read serially, by a local process pool and by a local Dask cluster alike, and
the divergence says rank 2 is the odd one out, where and why (issue 13, points 3 and 4)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from programs import PROGRAMS

import symdebug
from symdebug.cli import main
from symdebug.loading import MultiRankSession

RANKS = 3
STEP_LINE = (PROGRAMS / "ranks_job.py").read_text().splitlines().index("def step(x):") + 1
FRAME = f"step ({PROGRAMS / 'ranks_job.py'}:{STEP_LINE})"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TORCH_TRACE directory of one torchrun of tests/data/programs/ranks_job.py."""
    trace = tmp_path_factory.mktemp("ranks") / "trace"
    env = dict(os.environ, TORCH_TRACE=str(trace), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    command = [sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={RANKS}"]
    command += ["--master_addr=127.0.0.1", f"--master_port={_free_port()}"]
    subprocess.run([*command, str(PROGRAMS / "ranks_job.py")], check=True, env=env, timeout=300)
    return trace


def _loaded(job: Path, **options: object) -> MultiRankSession:
    loaded = symdebug.load_trace(job, **options)
    assert isinstance(loaded, MultiRankSession)
    return loaded


def test_divergence_names_the_odd_rank(job: Path) -> None:
    divergence = _loaded(job).divergence()
    assert divergence.ranks == [0, 1, 2]
    assert divergence.compiles == {FRAME: {0: 1, 1: 1, 2: 2}}
    (difference,) = divergence.differences
    assert (difference.frame, difference.number, difference.aspect) == (FRAME, 1, "recompile")
    assert difference.odd_ranks == [2] and divergence.odd_ones == [2]
    assert "expected 8, actual 7" in difference.values[2]
    assert difference.values[0] == difference.values[1] == "absent"
    assert "rank 2: recompiled (static_by_default)" in str(divergence)
    assert "ranks 0, 1: no compile #1" in str(divergence)


def _documents(loaded: MultiRankSession) -> dict[int, str]:
    return {rank: session.to_json() for rank, session in loaded.ranks.items()}


def test_process_pool_reads_what_the_serial_path_reads(job: Path) -> None:
    serial = _documents(_loaded(job, jobs=1))
    assert _documents(_loaded(job, jobs=2)) == serial
    assert sorted(serial) == [0, 1, 2]


def test_process_pool_in_an_interactive_shell(job: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # IPython and Jupyter replace the main module by one without __spec__, which spawn needs.
    serial = _documents(_loaded(job, jobs=1))
    monkeypatch.setitem(sys.modules, "__main__", SimpleNamespace())
    assert _documents(_loaded(job, jobs=2)) == serial


def test_dask_cluster_reads_what_the_serial_path_reads(job: Path) -> None:
    distributed = pytest.importorskip("distributed")
    serial = _documents(_loaded(job, jobs=1))
    # Worker threads: a worker process (its nanny) would import this process's main module,
    # which other tests' IPython shells replace; the logs still go through Dask's scheduler.
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    try:
        with distributed.Client(cluster) as client:
            assert _documents(_loaded(job, dask=client)) == serial
        assert _documents(_loaded(job, dask=cluster.scheduler_address)) == serial
    finally:
        cluster.close()


def test_cli_compares_the_ranks(
    job: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summary", str(job), "--jobs", "2"]) == 0
    summary = capsys.readouterr().out
    assert "=== ranks compared" in summary and "odd one(s) out: rank 2" in summary
    assert main(["report", str(job), "-o", str(tmp_path / "job.html")]) == 0
    page = (tmp_path / "job.ranks.html").read_text()
    assert 'href="job.rank2.html"' in page and (tmp_path / "job.rank2.html").exists()
    assert 'class="count odd" data-rank="2">2<' in page

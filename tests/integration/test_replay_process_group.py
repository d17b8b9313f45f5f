"""A replay of a distributed program never waits on its parent's process group (issue 46, 28).

A one-process ``DistributedDataParallel`` model on a real Gloo group: each replay child gets
a group of its own (a child forked with the parent's waits forever in DDP's first
collective), whether it is forked from the user's process or from a fresh one.  A process
that is one rank of two is told at once that a replay needs every rank.  Each program runs
in a process of its own: a process group is process-wide state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ONE_RANK = textwrap.dedent(
    """
    import json, sys
    import torch
    import torch.distributed as dist
    import symdebug

    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)


    def workload():
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
        compiled = torch.compile(model, backend="eager")
        return [compiled(torch.ones(n, 4)).sum().item() for n in (2, 3, 5)]


    with symdebug.capture() as session:
        workload()
    plan = symdebug.fix_plan(
        workload, session, start=sys.argv[1], timeout=240, max_replays=3, progress=False
    )
    errors = list(plan.errors_before) + [e for t in plan.tried for e in t.replay.errors]
    print(json.dumps({"replays": plan.replayed_in, "errors": errors, "tried": len(plan.tried)}))
    """
)


@pytest.mark.parametrize("start", ["spawn", "fork"])
def test_a_one_process_group_is_replayed_in_a_group_of_its_own(tmp_path: Path, start: str) -> None:
    (tmp_path / "ddp_one.py").write_text(ONE_RANK)
    done = subprocess.run(
        [sys.executable, "ddp_one.py", start],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["replays"].startswith(start)
    assert found["tried"] >= 1
    assert not [e for e in found["errors"] if "did not finish" in e], found["errors"]
    assert found["errors"] == []


TWO_RANKS = textwrap.dedent(
    """
    import os, sys
    import torch
    import torch.distributed as dist
    import symdebug

    rank = int(sys.argv[1])
    store = dist.FileStore(sys.argv[2], 2)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=2)


    def workload():
        return torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))(torch.ones(2, 4))


    if rank == 0:
        with symdebug.capture() as session:
            workload()
        try:
            symdebug.fix_plan(workload, session, timeout=600, progress=False)
        except ValueError as error:
            print("refused:", error)
    else:
        workload()
    dist.barrier()
    """
)


def test_one_rank_of_two_is_told_at_once_that_a_replay_needs_every_rank(tmp_path: Path) -> None:
    (tmp_path / "ddp_two.py").write_text(TWO_RANKS)
    store = str(tmp_path / "store")
    ranks = [
        subprocess.Popen(
            [sys.executable, "ddp_two.py", str(rank), store],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        for rank in (0, 1)
    ]
    try:
        outputs = [rank.communicate(timeout=600) for rank in ranks]
    finally:
        for rank in ranks:
            rank.kill()
    assert [r.returncode for r in ranks] == [0, 0], outputs[0][1][-2000:]
    said = outputs[0][0]
    assert "refused: this process is rank 0 of a process group of 2" in said
    assert "a replay runs one process, and a collective needs every rank" in said

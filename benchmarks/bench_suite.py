"""``symdebug suite`` of 20 small workloads (``suite_small.py``), serially and with
``--jobs 2``, side by side in one run (issue 29; the target: nearly twice as fast on 2 cores).

Each run is ``python -m symdebug suite`` in a process of its own, timed by wall clock (the
point of ``--jobs`` is wall time), interleaved (serial, jobs, jobs, serial, ...).  Both must
write the same ``suite.json``.  Printed: each run's median, the speed-up, and the machine's
cores (on one core no speed-up is possible).  Targets (a miss exits 1): the same
``suite.json``, and on 2 cores or more a speed-up of at least :data:`SPEEDUP_TARGET`.
``BENCH_ROUNDS`` (2) sets the rounds.
"""

from __future__ import annotations

import difflib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Recorder, knob, main_of

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ROOT / "benchmarks" / "suite_small.py"
#: ``--jobs 2`` at least this many times as fast as serially ("nearly twice"), on 2 cores.
SPEEDUP_TARGET = 1.5


def _timed(out: Path, jobs: int) -> tuple[float, str]:
    """Wall seconds of one suite run, and the suite.json it wrote."""
    command = [sys.executable, "-m", "symdebug", "suite", str(WORKLOADS), "-o", str(out)]
    started = time.perf_counter()
    subprocess.run([*command, "--jobs", str(jobs)], check=True, capture_output=True)
    seconds = time.perf_counter() - started
    return seconds, (out / "suite.json").read_text()


def run(recorder: Recorder) -> None:
    rounds = int(knob("BENCH_ROUNDS", 2))
    print(f"symdebug suite of 20 small workloads ({os.cpu_count()} cores; median of {rounds})")
    times: dict[int, list[float]] = {1: [], 2: []}
    written: dict[int, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(rounds):
            for jobs in (1, 2) if round_ % 2 == 0 else (2, 1):
                out = Path(folder) / f"run-{round_}-{jobs}"
                seconds, written[jobs] = _timed(out, jobs)
                times[jobs].append(seconds)
    serial, pooled = statistics.median(times[1]), statistics.median(times[2])
    print(f"  serially     {serial:6.1f} s")
    print(f"  --jobs 2     {pooled:6.1f} s   speed-up {serial / pooled:.2f}x (target: near 2x)")
    print(f"  same suite.json: {'yes' if written[1] == written[2] else 'NO'}")
    recorder.add("serial_s", serial, "s")
    recorder.add("jobs2_s", pooled, "s")
    many_cores = (os.cpu_count() or 1) >= 2
    recorder.add("speedup_x", serial / pooled, "x", (">=", SPEEDUP_TARGET) if many_cores else None)
    if written[1] != written[2]:
        recorder.fail("suite.json differs between the serial run and --jobs 2")
        lines = difflib.unified_diff(written[1].splitlines(), written[2].splitlines(), lineterm="")
        print("\n".join(list(lines)[:40]))


if __name__ == "__main__":
    main_of(run, "suite", __file__)

"""A 1 GB TORCH_TRACE log summarised and reported (issue 13, point 2: <= 60 s, <= 1 GB RSS).

Generating 1 GB of real compiles takes hours here, so the log is made of a real one
(``many_graphs.py``'s, from ``bench_tlparse.py``) repeated with its frames renumbered: each
copy is new frames of the same real events, payloads and MD5s unchanged.  ``BENCH_BIG_MB``
sets the size (default 1024).  ``symdebug summary`` and ``report`` then run as child
processes; their CPU time, wall time and peak RSS are printed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_tlparse import LOGS, log_of

_FRAME = re.compile(r'"frame_id": (\d+)')


def big_log(megabytes: int) -> Path:
    """The real log of 90 graphs, repeated with renumbered frames up to ``megabytes``."""
    path = LOGS / f"big-{megabytes}mb.log"
    if path.exists():
        return path
    source = log_of(90).read_text(encoding="utf-8")
    frames = 1 + max(int(m) for m in _FRAME.findall(source))
    print(f"  writing {path} from {frames} real frames, renumbered per copy ...", flush=True)
    with path.open("w", encoding="utf-8") as out:
        copy = 0
        while out.tell() < megabytes * 1_000_000:
            shift = copy * frames
            out.write(_FRAME.sub(lambda m, s=shift: f'"frame_id": {int(m[1]) + s}', source))
            copy += 1
    return path


def measured(command: list[str]) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"failed: {command}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def main() -> None:
    megabytes = int(os.environ.get("BENCH_BIG_MB", "1024"))
    log = big_log(megabytes)
    symdebug = str(Path(sys.executable).with_name("symdebug"))
    size = log.stat().st_size / 1e6
    print(f"a {size:,.0f} MB log (targets: each <= 60 s, peak RSS <= 1,000 MB)")
    with tempfile.TemporaryDirectory() as work:
        for name, command in (
            ("summary", [symdebug, "summary", str(log)]),
            ("report", [symdebug, "report", str(log), "-o", f"{work}/big.html"]),
        ):
            cpu, wall, rss = measured(command)
            print(f"  {name:8} CPU {cpu:6.1f} s  wall {wall:6.1f} s  peak RSS {rss:7,.0f} MB")


if __name__ == "__main__":
    main()

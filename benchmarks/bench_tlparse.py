"""symdebug against tlparse on real TORCH_TRACE logs of growing size (issue 13, point 7).

Logs come from ``many_graphs.py`` run under ``TORCH_TRACE`` (kept in ``out/bench-logs``:
generating them is the slow part, minutes per size).  For each log, ``symdebug report``
and ``tlparse`` run as child processes, paired and interleaved (A B B A ...), each its own
process; their CPU time and peak RSS come from ``wait4``, their output's bytes from disk.
Printed: the medians and the ratios (symdebug / tlparse).  ``BENCH_GRAPHS=20,90,270``
chooses the sizes (each graph is about 270 KB of log).

The package's bytecode is compiled first, as ``pip install`` does for an installed wheel: an
editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile every module
from source in every child process (a third of a small log's CPU time), which no user pays.
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "out" / "bench-logs"
ROUNDS = 3


def log_of(graphs: int, changed: bool = False) -> Path:
    """The log of ``graphs`` graphs (after the code change: ``changed``), generated once."""
    folder = LOGS / f"graphs-{graphs}{'-changed' if changed else ''}"
    found = sorted(folder.glob("*.log")) if folder.exists() else []
    if found:
        return found[0]
    shutil.rmtree(folder, ignore_errors=True)
    print(f"  generating the log of {graphs} graphs (once; kept in {folder}) ...", flush=True)
    env = dict(os.environ, TORCH_TRACE=str(folder))
    script = ROOT / "benchmarks" / "many_graphs.py"
    variant = ["changed"] if changed else []
    subprocess.run([sys.executable, str(script), str(graphs), *variant], env=env, check=True)
    return sorted(folder.glob("*.log"))[0]


def measured(command: list[str], ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """CPU seconds (user + system) and peak RSS in MB of one child process (exit in ``ok``)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) not in ok:
        raise RuntimeError(f"{command[0]} failed: {command}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def size_of(path: Path) -> int:
    return (
        sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        if path.is_dir()
        else path.stat().st_size
    )


def compare(log: Path, tlparse: str, work: Path) -> None:
    ours_out, theirs_out = work / "report.html", work / "tlparse"
    symdebug = str(Path(sys.executable).with_name("symdebug"))
    ours = [symdebug, "report", str(log), "-o", str(ours_out)]
    theirs = [tlparse, str(log), "-o", str(theirs_out), "--no-browser", "--overwrite"]
    times: dict[str, list[tuple[float, float]]] = {"symdebug": [], "tlparse": []}
    for round_ in range(ROUNDS):
        order = [("symdebug", ours), ("tlparse", theirs)]
        for name, command in order if round_ % 2 == 0 else reversed(order):
            times[name].append(measured(command))
    cpu = {k: statistics.median(t for t, _ in v) for k, v in times.items()}
    rss = {k: max(m for _, m in v) for k, v in times.items()}
    ours_bytes, theirs_bytes = size_of(ours_out), size_of(theirs_out)
    print(
        f"  {log.stat().st_size / 1e6:6.1f} MB log: CPU {cpu['symdebug']:.2f} s vs "
        f"{cpu['tlparse']:.2f} s = {cpu['symdebug'] / cpu['tlparse']:.2f}x; peak RSS "
        f"{rss['symdebug']:.0f} MB vs {rss['tlparse']:.0f} MB; bytes {ours_bytes / 1e6:.1f} MB "
        f"vs {theirs_bytes / 1e6:.1f} MB = {ours_bytes / theirs_bytes:.3f}x"
    )


def main() -> None:
    tlparse = shutil.which("tlparse") or str(Path(sys.executable).with_name("tlparse"))
    if not Path(tlparse).exists():
        print("symdebug vs tlparse: tlparse is not installed (pip install tlparse); skipped")
        return
    graphs = [int(g) for g in os.environ.get("BENCH_GRAPHS", "20,90,270").split(",")]
    compileall.compile_dir(ROOT / "symdebug", quiet=1)  # as an installed wheel has it
    print(f"symdebug report vs tlparse (median of {ROUNDS}, interleaved; targets <= 0.25x CPU")
    print("  on 5 and 24 MB, <= 0.15x on 72 MB; bytes <= 0.05x)")
    for count in graphs:
        log = log_of(count)
        with tempfile.TemporaryDirectory() as work:
            compare(log, tlparse, Path(work))


if __name__ == "__main__":
    main()

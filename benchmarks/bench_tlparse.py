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

Targets (a miss exits 1): symdebug's CPU at most 0.25x tlparse's on logs under 50 MB and
0.15x from 50 MB; its output's bytes at most 0.05x.  Without tlparse the run fails.
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

from figures import Recorder, knob, main_of

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "out" / "bench-logs"
ROUNDS = 3
#: symdebug's CPU at most this many times tlparse's: on logs under 50 MB, and from 50 MB.
CPU_TARGET_SMALL, CPU_TARGET_LARGE = 0.25, 0.15
BYTES_TARGET = 0.05


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


def compare(log: Path, tlparse: str, work: Path) -> dict[str, float]:
    """Both tools on ``log``, paired and interleaved: medians of CPU, peak RSS, bytes."""
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
    return {
        "log_mb": log.stat().st_size / 1e6,
        "symdebug_cpu_s": cpu["symdebug"],
        "tlparse_cpu_s": cpu["tlparse"],
        "symdebug_rss_mb": rss["symdebug"],
        "tlparse_rss_mb": rss["tlparse"],
        "symdebug_bytes_mb": size_of(ours_out) / 1e6,
        "tlparse_bytes_mb": size_of(theirs_out) / 1e6,
    }


def recorded(graphs: int, found: dict[str, float], recorder: Recorder) -> None:
    """Print one log's comparison and record its figures and targets."""
    cpu_ratio = found["symdebug_cpu_s"] / found["tlparse_cpu_s"]
    bytes_ratio = found["symdebug_bytes_mb"] / found["tlparse_bytes_mb"]
    cpu_target = CPU_TARGET_LARGE if found["log_mb"] >= 50 else CPU_TARGET_SMALL
    print(
        f"  {found['log_mb']:6.1f} MB log: CPU {found['symdebug_cpu_s']:.2f} s vs "
        f"{found['tlparse_cpu_s']:.2f} s = {cpu_ratio:.2f}x (target <= {cpu_target}x); peak RSS "
        f"{found['symdebug_rss_mb']:.0f} MB vs {found['tlparse_rss_mb']:.0f} MB; bytes "
        f"{found['symdebug_bytes_mb']:.1f} MB vs {found['tlparse_bytes_mb']:.1f} MB = "
        f"{bytes_ratio:.3f}x (target <= {BYTES_TARGET}x)"
    )
    name = f"graphs_{graphs}"
    units = {"_s": "s", "_mb": "MB"}
    for key, value in found.items():
        recorder.add(f"{name}.{key}", value, units[key[key.rindex("_") :]])
    recorder.add(f"{name}.cpu_ratio", cpu_ratio, "x", target=("<=", cpu_target))
    recorder.add(f"{name}.bytes_ratio", bytes_ratio, "x", target=("<=", BYTES_TARGET))


def run(recorder: Recorder) -> None:
    graphs = [int(g) for g in knob("BENCH_GRAPHS", "20,90,270").split(",")]
    tlparse = shutil.which("tlparse") or str(Path(sys.executable).with_name("tlparse"))
    if not Path(tlparse).exists():
        print("symdebug vs tlparse: tlparse is not installed (pip install tlparse)")
        recorder.fail("tlparse is not installed: nothing measured")
        return
    compileall.compile_dir(ROOT / "symdebug", quiet=1)  # as an installed wheel has it
    print(f"symdebug report vs tlparse (median of {ROUNDS}, interleaved; CPU seconds)")
    for count in graphs:
        log = log_of(count)
        with tempfile.TemporaryDirectory() as work:
            recorded(count, compare(log, tlparse, Path(work)), recorder)


if __name__ == "__main__":
    main_of(run, "tlparse", __file__)

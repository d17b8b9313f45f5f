"""``symdebug diff`` of two 72 MB logs (issue 29): one program before and after a code change.

The logs are ``many_graphs.py`` (270 graphs) and its ``changed`` variant, run under
``TORCH_TRACE`` (generated once into ``out/bench-logs``; minutes each).  Side by side, in one
run, each its own process (``wait4``): ``symdebug diff`` of the two logs, and what a user
would otherwise run to compare them by eye, ``symdebug summary`` of each log, and tlparse on
each (when installed).  Printed: median CPU seconds, peak RSS, and the ratios.  The diff must
read both logs, so about 1x the two summaries is the floor; the compare step's own cost is
what shows above it.  No target on the figures; the diff must exit 1 (the change adds
recompiles: a regression), or the run fails.  ``BENCH_DIFF_GRAPHS`` (270) sets the size.
"""

from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_tlparse import ROOT, log_of, measured
from figures import Recorder, knob, main_of

ROUNDS = 3


def _commands(before: Path, after: Path, work: Path) -> dict[str, list[list[str]]]:
    symdebug = str(Path(sys.executable).with_name("symdebug"))
    tlparse = Path(sys.executable).with_name("tlparse")
    commands = {
        "diff": [[symdebug, "diff", str(before), str(after), "-o", str(work / "diff.html")]],
        "two summaries": [[symdebug, "summary", str(log)] for log in (before, after)],
    }
    if tlparse.exists():
        commands["two tlparse"] = [
            [str(tlparse), str(log), "-o", str(work / f"tl{n}"), "--no-browser", "--overwrite"]
            for n, log in enumerate((before, after))
        ]
    return commands


def _run(commands: list[list[str]]) -> tuple[float, float]:
    """CPU seconds summed over the commands, and the highest peak RSS (MB)."""
    # `symdebug diff` exits 1 on a regression, which this change is: not a failure here.
    readings = [measured(command, ok=(0, 1)) for command in commands]
    return sum(cpu for cpu, _ in readings), max(rss for _, rss in readings)


def run(recorder: Recorder) -> None:
    graphs = int(knob("BENCH_DIFF_GRAPHS", 270))
    compileall.compile_dir(ROOT / "symdebug", quiet=1)  # as an installed wheel has it
    before, after = log_of(graphs), log_of(graphs, changed=True)
    sizes = f"{before.stat().st_size / 1e6:.0f} MB and {after.stat().st_size / 1e6:.0f} MB"
    print(f"symdebug diff of two logs ({sizes}; median of {ROUNDS}, interleaved)")
    recorder.add("before_log_mb", before.stat().st_size / 1e6, "MB")
    recorder.add("after_log_mb", after.stat().st_size / 1e6, "MB")
    with tempfile.TemporaryDirectory() as folder:
        commands = _commands(before, after, Path(folder))
        readings: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_ in range(ROUNDS):
            names = list(commands) if round_ % 2 == 0 else list(reversed(commands))
            for name in names:
                readings[name].append(_run(commands[name]))
        verdict = subprocess.run(commands["diff"][0], capture_output=True, text=True, check=False)
    cpu = {name: statistics.median(c for c, _ in r) for name, r in readings.items()}
    for name, runs in readings.items():
        peak = max(m for _, m in runs)
        ratio = cpu[name] / cpu["diff"]
        print(f"  {name:<14} CPU {cpu[name]:6.2f} s  peak RSS {peak:5.0f} MB  ({ratio:.2f}x diff)")
        key = name.replace(" ", "_")
        recorder.add(f"{key}.cpu_s", cpu[name], "s")
        recorder.add(f"{key}.peak_rss_mb", peak, "MB")
        if name != "diff":
            recorder.add(f"diff_vs_{key}_x", cpu["diff"] / cpu[name], "x")
    print(f"  diff / two summaries: {cpu['diff'] / cpu['two summaries']:.2f}x")
    print(f"  verdict: exit {verdict.returncode}; {verdict.stdout.splitlines()[1]}")
    if verdict.returncode != 1:
        recorder.fail(f"symdebug diff exited {verdict.returncode}, not 1 (a regression)")


if __name__ == "__main__":
    main_of(run, "diff", __file__)

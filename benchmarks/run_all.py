"""Run every benchmark, record each one's exit status and time, fail at the end if one failed.

``make bench`` runs this.  Each benchmark runs as its own process, in the order of
:data:`BENCHMARKS`, whatever the ones before it did: a benchmark exits 1 when it misses a
target (and crashes with another status), and every one still runs.  Each writes its
figures into ``out/bench-figures.json`` (``figures.py``); this runner first removes the
benchmark's old entry (no figure of an earlier run survives a crash), then adds
``exit_code`` and ``seconds`` to it.  It ends with a table of the runs and exits 1 when any
benchmark failed.

    python benchmarks/run_all.py                    # every benchmark, make bench's settings
    python benchmarks/run_all.py --quick            # small settings (:data:`QUICK`): minutes
    python benchmarks/run_all.py --only tlparse,diff

Settings given in the environment (``BENCH_*``, ``FUZZ_SECONDS``) reach every benchmark; a
run with settings other than ``make bench``'s is marked ``quick`` in the file, and
``scripts/readme_figures.py`` does not take its figures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from figures import read_figures, update_entry

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The benchmarks, in the order they run; each ``bench_<name>.py`` records as ``<name>``.
BENCHMARKS = (
    "capture",
    "capture_share",
    "warm_capture",
    "predict",
    "report",
    "build",
    "tlparse",
    "big_log",
    "huge_line",
    "recompiles",
    "report_open",
    "fuzz",
    "diff",
    "suite",
    "replay",
    "script_output",
    "session_load",
    "memory",
)
#: Small settings, for checking the benchmarks themselves (each figure is marked quick).
QUICK = {
    "BENCH_REPEATS": "1",
    "BENCH_BACKENDS": "aot_eager",
    "BENCH_POINTS": "20000",
    "BENCH_GRAPHS": "90",
    "BENCH_BIG_MB": "100",
    "BENCH_HUGE_MB": "100",
    "BENCH_ROUNDS": "1",
    "BENCH_BASE": "none",
    "FUZZ_SECONDS": "15",
    "BENCH_DIFF_GRAPHS": "20",
    "BENCH_REPLAY_PROGRAMS": "last_token,branch_forced",
    "BENCH_OUTPUT_MB": "50",
    "BENCH_GUARDS": "100000",
}


def run_one(name: str, env: dict[str, str]) -> tuple[int, float]:
    """Run ``bench_<name>.py``; its exit status and wall seconds, recorded in its entry."""
    script = HERE / f"bench_{name}.py"
    update_entry(name, None)
    print(f"=== {script.relative_to(ROOT)}", flush=True)
    start = time.perf_counter()
    code = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, check=False)
    seconds = time.perf_counter() - start
    outcome = {"exit_code": code.returncode, "seconds": round(seconds, 1)}
    if name not in read_figures()["benchmarks"]:  # it ended before recording anything
        outcome |= {"script": str(script.relative_to(ROOT)), "passed": False, "figures": []}
    update_entry(name, outcome, merge=True)
    return code.returncode, seconds


def summary(results: dict[str, tuple[int, float]]) -> list[str]:
    """One line per benchmark run: its time, exit status and missed targets."""
    entries = read_figures()["benchmarks"]
    lines = []
    for name, (code, seconds) in results.items():
        failures = entries.get(name, {}).get("failures") or []
        verdict = "ok" if code == 0 else f"FAILED (exit {code})"
        lines.append(f"  {name:<14} {seconds:7.0f} s  {verdict}")
        lines += [f"      {reason}" for reason in failures]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small settings (QUICK)")
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    args = parser.parse_args(argv)
    chosen = [n for n in args.only.split(",") if n] or list(BENCHMARKS)
    unknown = sorted(set(chosen) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmarks: {', '.join(unknown)}")
    env = dict(os.environ, **QUICK) if args.quick else dict(os.environ)
    results = {name: run_one(name, env) for name in chosen}
    print("benchmarks (figures in out/bench-figures.json):")
    print("\n".join(summary(results)))
    failed = [name for name, (code, _) in results.items() if code != 0]
    if failed:
        print(f"{len(failed)} of {len(results)} benchmarks failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

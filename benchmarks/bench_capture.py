"""Capture overhead, measured side by side in one run.

Each mode compiles the same model (dozens of shape guards, several recompiles) in a fresh
process, so TORCH_TRACE (read at import) and Dynamo's caches start equal.  Modes run
interleaved, ``BENCH_REPEATS`` (5) times each (Inductor: half, at least 3); we report
medians and the ratios to the plain compile, and how much each mode's peak RSS grew while
compiling:

  plain      torch.compile, no handler, caches off      (baseline)
  handler    a handler on torch's trace logger that records nothing: what torch itself does
             (payloads, stacks) once anything listens, which capture cannot avoid
  symdebug   inside symdebug.capture() (kernel provenance on, at Inductor's basic level)
  symdebug-lean  inside symdebug.capture(kernel_provenance=False)
  trace      TORCH_TRACE=<tmpdir> (torch's own structured logging to a file)

The baseline is a cold compile: torch's compile caches are turned off in every mode, the
plain one included (``force_disable_caches``, as ``capture()`` does), so only the hook
differs.  A plain compile with warm caches is faster than any of these; what capture costs
there (its caches off: every compile cold) is ``bench_warm_capture.py``'s figure.
Both ``aot_eager`` and Inductor (C++ on a CPU) are measured; ``BENCH_BACKENDS`` picks.
Figures are recorded in ``out/bench-figures.json`` (``figures.py``); no target here.
Run to run, one compile's time varies more than the 5 % target; ``bench_capture_share.py``
measures the capture's extra work inside the run that pays it.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap

from figures import Recorder, knob, main_of

#: What every ratio here is a multiple of (issue 19): printed with the figures.
BASELINE = (
    "baseline: a plain torch.compile with torch's compile caches off (force_disable_caches),"
    " as capture() turns them off: a cold compile; warm caches: bench_warm_capture.py"
)

#: The compiles every mode makes: dozens of shape guards, several recompiles (``BACKEND``
#: is set before it).
WORKLOAD = textwrap.dedent(
    """
    def model(*xs):
        total = 0
        for i, x in enumerate(xs):
            if x.shape[0] > 4:
                x = x * 2
            h = x.view(-1, 2).sum(0)
            total = total + h.sum() + xs[(i + 1) % len(xs)][: x.shape[0] // 2].sum()
        return total

    def calls():
        compiled = torch.compile(model, backend=BACKEND)
        for rows in (8, 6, 3, 10):
            compiled(*[torch.randn(rows + i % 3, 4) for i in range(24)])
    """
)

CHILD = (
    textwrap.dedent(
        """
    import resource, sys, time, torch
    torch.compiler.config.force_disable_caches = True
    import symdebug
    BACKEND = sys.argv[2]
    """
    )
    + WORKLOAD
    + textwrap.dedent(
        """
    torch.compile(lambda x: x + 1, backend="aot_eager")(torch.randn(2))  # warm imports
    torch._dynamo.reset()
    start, cpu = time.perf_counter(), time.process_time()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if sys.argv[1].startswith("symdebug"):
        with symdebug.capture(kernel_provenance=sys.argv[1] == "symdebug") as s:
            calls()
        guards = len(s.guards)
    elif sys.argv[1] == "handler":  # torch's own work once any handler listens
        import logging
        from torch._logging._internal import trace_log

        class Silent(logging.Handler):
            def emit(self, record):
                pass

        silent = Silent()
        trace_log.addHandler(silent)
        calls()
        trace_log.removeHandler(silent)
        guards = -1
    else:
        calls()
        guards = -1
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak  # KB on Linux
    print(time.perf_counter() - start, time.process_time() - cpu, guards, grown)
    """
    )
)


def run_mode(
    mode: str, trace_dir: str, backend: str = "aot_eager"
) -> tuple[float, float, int, float]:
    """Wall and CPU seconds of the compiles, guards captured, peak RSS growth in MB."""
    env = dict(os.environ)
    env.pop("TORCH_TRACE", None)
    if mode == "trace":
        env["TORCH_TRACE"] = trace_dir
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, backend],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), float(out[3]) / 1024


#: Inductor compiles C++ for each graph (seconds each): fewer modes and rounds there.
BACKENDS = {
    "aot_eager": ("plain", "handler", "symdebug", "symdebug-lean", "trace"),
    "inductor": ("plain", "symdebug", "trace"),
}


def rounds_of(backend: str, repeats: int) -> int:
    """``BENCH_REPEATS`` rounds on ``aot_eager``; half as many (at least 3) on Inductor."""
    return repeats if backend == "aot_eager" else max(3, repeats // 2)


def measure(
    backend: str, modes: tuple[str, ...], repeats: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[float]], int]:
    """Every mode ``repeats`` times, interleaved in a new order each round.

    Wall seconds, CPU seconds and peak RSS growth (MB) by mode, and the guards captured.
    """
    wall: dict[str, list[float]] = {mode: [] for mode in modes}
    cpu: dict[str, list[float]] = {mode: [] for mode in wall}
    grown: dict[str, list[float]] = {mode: [] for mode in wall}
    guards = 0
    with tempfile.TemporaryDirectory() as trace_dir:
        for repeat in range(repeats):
            order = list(wall)
            random.Random(repeat).shuffle(order)  # no mode always runs first or last
            for mode in order:
                seconds, cpu_seconds, count, megabytes = run_mode(mode, trace_dir, backend)
                wall[mode].append(seconds)
                cpu[mode].append(cpu_seconds)
                grown[mode].append(megabytes)
                guards = max(guards, count)
            print(f"  {backend}: round {repeat + 1}/{repeats} done", file=sys.stderr)
    return wall, cpu, grown, guards


def report(backend: str, modes: tuple[str, ...], repeats: int, recorder: Recorder) -> None:
    """Measure one backend; print and record the medians and their ratios to plain."""
    wall, cpu, grown, guards = measure(backend, modes, repeats)
    print(f"capture overhead, {backend} ({repeats} runs per mode, medians; {guards} guards)")
    print(f"  {BASELINE}")
    for label, key, table in (("CPU time", "cpu", cpu), ("wall time", "wall", wall)):
        median = {mode: statistics.median(values) for mode, values in table.items()}
        print(f"  {label}:")
        for mode, value in median.items():
            ratio = value / median["plain"]
            print(f"    {mode:<13} {value:7.3f} s   x{ratio:.3f} of plain compile")
            recorder.add(f"{backend}.{mode}.{key}_s", value, "s")
            recorder.add(f"{backend}.{mode}.{key}_x", ratio, "x", note="of a plain cold compile")
        ratio = median["symdebug"] / median["trace"]
        print(f"    symdebug / TORCH_TRACE-to-file: x{ratio:.3f}")
        recorder.add(f"{backend}.symdebug_vs_trace.{key}_x", ratio, "x")
        if "handler" in median:
            own = median["symdebug-lean"] / median["handler"]
            print(f"    symdebug-lean / a handler recording nothing: x{own:.3f} (symdebug's own)")
            recorder.add(f"{backend}.lean_vs_handler.{key}_x", own, "x")
    print("  peak RSS growth while compiling (what the events and facts kept, and transients):")
    for mode, values in grown.items():
        print(f"    {mode:<13} {statistics.median(values):7.1f} MB")
        recorder.add(f"{backend}.{mode}.rss_growth_mb", statistics.median(values), "MB")


def run(recorder: Recorder) -> None:
    repeats = int(knob("BENCH_REPEATS", 5))
    chosen = knob("BENCH_BACKENDS", ",".join(BACKENDS)).split(",")
    for backend in chosen:
        report(backend, BACKENDS[backend], rounds_of(backend, repeats), recorder)


if __name__ == "__main__":
    main_of(run, "capture", __file__)

"""Capture overhead, measured side by side in one run.

Each mode compiles the same model (dozens of shape guards, several recompiles) in a fresh
process, so TORCH_TRACE (read at import) and Dynamo's caches start equal.  Modes run
interleaved, REPEATS times each; we report medians and the ratios to the plain compile,
and how much each mode's peak RSS grew while compiling:

  plain      torch.compile, no handler                 (baseline)
  handler    a handler on torch's trace logger that records nothing: what torch itself does
             (payloads, stacks) once anything listens, which capture cannot avoid
  symdebug   inside symdebug.capture() (kernel provenance on, at Inductor's basic level)
  symdebug-lean  inside symdebug.capture(kernel_provenance=False)
  trace      TORCH_TRACE=<tmpdir> (torch's own structured logging to a file)

Compile caches are off in every mode (capture turns them off), so only the hook differs.
Both ``aot_eager`` and Inductor (C++ on a CPU) are measured; ``BENCH_BACKENDS`` picks.
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

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))

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
    "aot_eager": (("plain", "handler", "symdebug", "symdebug-lean", "trace"), REPEATS),
    "inductor": (("plain", "symdebug", "trace"), max(3, REPEATS // 2)),
}


def measure(backend: str, modes: tuple[str, ...], repeats: int) -> None:
    """Every mode ``repeats`` times, interleaved in a new order each round; print medians."""
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
    print(f"capture overhead, {backend} ({repeats} runs per mode, medians; {guards} guards)")
    for label, table in (("CPU time", cpu), ("wall time", wall)):
        median = {mode: statistics.median(values) for mode, values in table.items()}
        print(f"  {label}:")
        for mode, value in median.items():
            print(
                f"    {mode:<13} {value:7.3f} s   x{value / median['plain']:.3f} of plain compile"
            )
        ratio = median["symdebug"] / median["trace"]
        print(f"    symdebug / TORCH_TRACE-to-file: x{ratio:.3f}")
        if "handler" in median:
            own = median["symdebug-lean"] / median["handler"]
            print(f"    symdebug-lean / a handler recording nothing: x{own:.3f} (symdebug's own)")
    print("  peak RSS growth while compiling (what the events and facts kept, and transients):")
    for mode, values in grown.items():
        print(f"    {mode:<13} {statistics.median(values):7.1f} MB")


def main() -> None:
    chosen = os.environ.get("BENCH_BACKENDS", ",".join(BACKENDS)).split(",")
    for backend in chosen:
        measure(backend, *BACKENDS[backend])


if __name__ == "__main__":
    main()

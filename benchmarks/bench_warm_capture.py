"""Capture with warm compile caches, measured side by side in one run (issue 33 item 14).

``capture()`` turns torch's compile caches off, so that every guard keeps its line: a
compile that would have been warm then runs cold.  Each mode compiles the workload of
``bench_capture.py`` with Inductor in a fresh process, over one compile cache warmed
beforehand (a ``TORCHINDUCTOR_CACHE_DIR`` of its own); modes run interleaved:

  plain-warm     torch.compile, caches on and warm              (baseline)
  capture-warm   inside symdebug.capture(disable_caches=False): cache hits, guards marked
  capture        inside symdebug.capture() (the default: caches off, a cold compile)

CPU seconds count the process and the compilers it ran (C++ compiles in-process:
``TORCHINDUCTOR_COMPILE_THREADS=1``).  Target: ``capture-warm`` within
:data:`WARM_TARGET` of a plain warm compile; a miss exits non-zero.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap

from bench_capture import WORKLOAD
from figures import Recorder, knob, main_of

#: A warm compile under capture(disable_caches=False), at most this times a plain warm one.
WARM_TARGET = 1.5
MODES = ("plain-warm", "capture-warm", "capture")

CHILD = (
    textwrap.dedent(
        """
    import resource, sys, time, torch
    import symdebug
    BACKEND = "inductor"
    """
    )
    + WORKLOAD
    + textwrap.dedent(
        """
    def cpu():
        own = time.process_time()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own + children.ru_utime + children.ru_stime

    torch.compile(lambda x: x + 1, backend="aot_eager")(torch.randn(2))  # warm imports
    torch._dynamo.reset()
    start = cpu()
    if sys.argv[1] == "plain-warm":
        calls()
        replayed = -1
    else:
        with symdebug.capture(disable_caches=sys.argv[1] == "capture") as s:
            calls()
        replayed = sum(g.origin == "cache" for g in s.guards)
    print(cpu() - start, replayed)
    """
    )
)


def run_mode(mode: str, cache: str) -> tuple[float, int]:
    """CPU seconds of the compiles, and the guards marked as replayed from the cache."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_COMPILE_THREADS="1")
    env.pop("TORCH_TRACE", None)
    env.pop("TORCHINDUCTOR_FORCE_DISABLE_CACHES", None)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), int(out[1])


def measure(cache: str, repeats: int) -> dict[str, float]:
    """Each mode ``repeats`` times, interleaved in a new order each round: median CPU seconds."""
    cold, _ = run_mode("plain-warm", cache)  # fills the cache: a cold plain compile
    print(f"  cache warmed: a cold plain compile took {cold:.1f} s CPU", file=sys.stderr)
    seconds: dict[str, list[float]] = {mode: [] for mode in MODES}
    replayed = 0
    for repeat in range(repeats):
        order = list(MODES)
        random.Random(repeat).shuffle(order)
        for mode in order:
            value, count = run_mode(mode, cache)
            seconds[mode].append(value)
            replayed = max(replayed, count)
        print(f"  round {repeat + 1}/{repeats} done", file=sys.stderr)
    print(f"warm compile caches, inductor ({repeats} runs per mode, medians, CPU seconds)")
    print(f"  a cold plain compile (filling the cache): {cold:7.3f} s")
    print(f"  guards replayed from the cache and marked so under capture: {replayed}")
    return {mode: statistics.median(values) for mode, values in seconds.items()}


def run(recorder: Recorder) -> None:
    with tempfile.TemporaryDirectory() as cache:
        median = measure(cache, int(knob("BENCH_REPEATS", 3)))
    print("  baseline: a plain torch.compile with its compile caches on and warm")
    for mode, value in median.items():
        ratio = value / median["plain-warm"]
        print(f"  {mode:<13} {value:7.3f} s   x{ratio:.2f} of plain warm")
        recorder.add(f"{mode}.cpu_s", value, "s")
        target = ("<=", WARM_TARGET) if mode == "capture-warm" else None
        recorder.add(f"{mode}.x", ratio, "x", target=target, note="of a plain warm compile")
    met = median["capture-warm"] / median["plain-warm"] <= WARM_TARGET
    print(f"  target capture-warm <= x{WARM_TARGET} of plain warm: {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    main_of(run, "warm_capture", __file__)

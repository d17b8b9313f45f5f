"""What a replayed candidate costs, and what a hunt costs, against one run of the workload.

Issue 30: replays run in a forked child so the user's compiled functions survive.  Side by
side in one process, interleaved: the workload run directly (its compiles from a reset
Dynamo), one replay in this process (``replay``), one replay in a forked child
(``isolated_replay``), each kind of candidate (a setting, a mark made at each call, a code
rewrite swapped in), a whole ``fix_plan`` and a whole ``hunt``.  Printed: medians in
seconds and each as a multiple of the direct run.  The programs are the tests' own
(``BENCH_REPLAY_PROGRAMS``; ``hf_gpt2`` needs transformers); ``BENCH_ROUNDS`` (3) sets the
rounds.  No target.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from figures import Recorder, knob, main_of

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "data" / "programs"))

import symdebug  # noqa: E402
from symdebug.live.candidates import plan_candidates  # noqa: E402
from symdebug.live.replay import isolated_replay, replay  # noqa: E402


class Bench:
    """Medians of ``rounds`` runs, printed and recorded as multiples of the direct run."""

    def __init__(self, recorder: Recorder, rounds: int) -> None:
        self.recorder, self.rounds = recorder, rounds
        self.direct = 1.0

    def median(self, action: Callable[[], Any]) -> float:
        times = []
        for _ in range(self.rounds):
            started = time.perf_counter()
            action()
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    def row(self, name: str, label: str, seconds: float) -> None:
        print(f"  {label:<38} {seconds:7.2f} s   {seconds / self.direct:5.1f}x one run")
        self.recorder.add(f"{name}_s", seconds, "s")
        self.recorder.add(f"{name}_x", seconds / self.direct, "x", note="of one direct run")


def _direct(workload: Callable[[], Any]) -> None:
    torch._dynamo.reset()
    workload()
    torch._dynamo.reset()


def _candidates(workload: Callable[[], Any]) -> dict[str, Any]:
    """One candidate of each kind the program's fixes give (setting, mark, code)."""
    with symdebug.capture() as session:
        workload()
    planned, _ = plan_candidates([session.facts])
    kinds: dict[str, Any] = {}
    for candidate in planned:
        kinds.setdefault(candidate[0].kind, candidate)
    return kinds


def bench(name: str, timer: Bench) -> None:
    workload = __import__(name).workload
    timer.direct = timer.median(lambda: _direct(workload))
    print(f"{name}.py (aot_eager/eager; median of {timer.rounds})")
    timer.row(f"{name}.direct", "the workload, run directly", timer.direct)
    timer.row(f"{name}.replay", "replay, in this process", timer.median(lambda: replay(workload)))
    forked = timer.median(lambda: isolated_replay(workload))
    timer.row(f"{name}.forked_replay", "replay, in a forked child", forked)
    for kind, candidate in _candidates(workload).items():
        seconds = timer.median(lambda c=candidate: isolated_replay(workload, c))
        timer.row(f"{name}.candidate_{kind}", f"one {kind} candidate, forked", seconds)
    with symdebug.capture() as session:
        workload()
    plan_s = timer.median(lambda: session.fix_plan(workload, progress=False))
    hunt_s = timer.median(lambda: session.hunt(workload, progress=False))
    tried = len(session.fix_plan(workload, progress=False).tried)
    timer.row(f"{name}.fix_plan", f"fix_plan ({tried} candidates)", plan_s)
    hunted = len(session.hunt(workload, progress=False))
    timer.row(f"{name}.hunt", f"hunt ({hunted} constants)", hunt_s)


def run(recorder: Recorder) -> None:
    timer = Bench(recorder, int(knob("BENCH_ROUNDS", 3)))
    programs = knob("BENCH_REPLAY_PROGRAMS", "last_token,branch_forced,hf_gpt2").split(",")
    for name in programs:
        if name == "hf_gpt2" and importlib.util.find_spec("transformers") is None:
            print("hf_gpt2: transformers is not installed; skipped")
            continue
        bench(name, timer)


if __name__ == "__main__":
    main_of(run, "replay", __file__)

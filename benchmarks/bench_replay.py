"""What a replayed candidate costs, and what a hunt costs, against one run of the workload.

Issue 30: replays run in a forked child so the user's compiled functions survive.  Side by
side in one process, interleaved: the workload run directly (its compiles from a reset
Dynamo), one replay in this process (``replay``), one replay in a forked child
(``isolated_replay``), each kind of candidate (a setting, a mark made at each call, a code
rewrite swapped in), a whole ``fix_plan`` and a whole ``hunt``.  Printed: medians in
seconds and each as a multiple of the direct run.  The programs are the tests' own.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "data" / "programs"))
ROUNDS = 3

import symdebug  # noqa: E402
from symdebug.live.candidates import plan_candidates  # noqa: E402
from symdebug.live.replay import isolated_replay, replay  # noqa: E402


def _median(action: Callable[[], Any]) -> float:
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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


def _row(label: str, seconds: float, direct: float) -> None:
    print(f"  {label:<38} {seconds:7.2f} s   {seconds / direct:5.1f}x one run")


def bench(name: str) -> None:
    workload = __import__(name).workload
    direct = _median(lambda: _direct(workload))
    print(f"{name}.py (aot_eager/eager; median of {ROUNDS})")
    _row("the workload, run directly", direct, direct)
    _row("replay, in this process", _median(lambda: replay(workload)), direct)
    _row("replay, in a forked child", _median(lambda: isolated_replay(workload)), direct)
    for kind, candidate in _candidates(workload).items():
        seconds = _median(lambda c=candidate: isolated_replay(workload, c))
        _row(f"one {kind} candidate, forked", seconds, direct)
    with symdebug.capture() as session:
        workload()
    plan_s = _median(lambda: session.fix_plan(workload, progress=False))
    hunt_s = _median(lambda: session.hunt(workload, progress=False))
    _row(
        f"fix_plan ({len(session.fix_plan(workload, progress=False).tried)} candidates)",
        plan_s,
        direct,
    )
    _row(f"hunt ({len(session.hunt(workload, progress=False))} constants)", hunt_s, direct)


def main() -> None:
    for name in ("last_token", "branch_forced"):
        bench(name)
    try:
        import transformers  # noqa: F401
    except ImportError:
        print("hf_gpt2: transformers is not installed; skipped")
    else:
        bench("hf_gpt2")


if __name__ == "__main__":
    main()

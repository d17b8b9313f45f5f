"""The bundled example: a small model that shows several kinds of specialization.

A first batch of 1, a branch on the sequence length, an int that drives a loop, two inputs
sharing a size; compiled with Inductor, kernels and a sweep fill its report.  Logs recorded
of it (tests/data/conformance) name TinyBlock's lines: keep them where they are.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import torch

import symdebug


class TinyBlock(torch.nn.Module):
    """A block with the usual overspecialization traps."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(width, width)
        self.heads = 2  # an int attribute: Dynamo treats it as a constant

    def forward(self, x: torch.Tensor, mask: torch.Tensor, steps: int) -> torch.Tensor:
        h = self.proj(x)
        if h.shape[1] > 8:  # a branch on the sequence length
            h = h * 0.5
        for _ in range(steps):  # an int used as a Python loop count
            h = torch.tanh(h)
        h = h.view(h.shape[0], h.shape[1], self.heads, -1)  # needs width divisible by heads
        out: torch.Tensor = h.sum(-1) + mask.unsqueeze(-1)
        return out


#: (batch, sequence length, steps): a warmup with batch 1, then what serving sends.
CALLS = [(1, 6, 2), (4, 6, 2), (4, 12, 3), (3, 5, 3), (3, 5, 4)]
#: Calls re-run after the capture: each prediction is checked against what torch does.
RERUNS = [(2, 7, 4), (2, 30, 4), (2, 7, 5)]
#: The sequence lengths of the sweep (batch 2, 5 steps): the branch flips above 8.
SWEEP_LENGTHS = list(range(2, 33, 2))
WIDTH = 16


def backend() -> str:
    """Inductor where a C++ compiler can build its CPU kernels, else ``aot_eager`` (no kernels)."""
    if any(shutil.which(name) for name in ("c++", "g++", "clang++")):
        return "inductor"
    print("no C++ compiler on PATH: compiling with aot_eager (the report shows no kernels)\n")
    return "aot_eager"


def inputs(batch: int, length: int, steps: int) -> tuple[torch.Tensor, torch.Tensor, int]:
    """The model's arguments at these sizes."""
    return torch.randn(batch, length, WIDTH), torch.randn(batch, length), steps


def shapes(batch: int, length: int, steps: int) -> tuple[Any, ...]:
    """The same call as sizes, the way ``predict``, ``rerun`` and ``sweep`` take it."""
    return (batch, length, WIDTH), (batch, length), steps


def capture_calls(compiled: Any) -> symdebug.LiveSession:
    """Call the compiled model at each of ``CALLS`` under capture, saying each as it runs.

    A call that compiles takes seconds (Inductor builds its kernels): each is announced
    before it runs and timed after, so the console never sits silent.
    """
    with symdebug.capture() as session:
        for number, call in enumerate(CALLS, 1):
            before = len(session.compiles)
            print(f"call {number}/{len(CALLS)}: (batch, length, steps) = {call} ...", flush=True)
            started = time.perf_counter()
            compiled(*inputs(*call))
            made = counted(len(session.compiles) - before, "compile")
            print(f"  {time.perf_counter() - started:.1f} s, {made}", flush=True)
    print()
    return session


def explain(session: symdebug.Session) -> None:
    """Print the summary and why each input was specialized."""
    print(session)
    print()
    for name, dim in (("x", 0), ("x", 1), ("steps", None)):
        print(session.why(name, dim))
        print()


def predict_and_rerun(session: symdebug.LiveSession, compiled: Any) -> None:
    """Predict each of ``RERUNS``, run it, and keep the run for the report's sizes pane."""
    for call in RERUNS:
        sizes = shapes(*call)
        print(f"predict{sizes}: {session.predict(*sizes)}")
        result = session.rerun(compiled, *sizes)
        print(f"  rerun: {result}")
        session.record_run(str(sizes), result)


def counted(count: int, word: str) -> str:
    """``1 compile``, ``8 compiles``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def where_compiles_came_from(counts: dict[str, int]) -> str:
    """``the session now holds 8 compiles: 5 from the calls above, 1 from the reruns, ...``."""
    parts = ", ".join(f"{n} from {stage}" for stage, n in counts.items())
    total = counted(sum(counts.values()), "compile")
    return f"\nthe session (and its report) now holds {total}: {parts}"


def sweep_lengths(session: symdebug.LiveSession, compiled: Any) -> None:
    """Predict, then run, every sequence length of ``SWEEP_LENGTHS``: the report charts it."""
    calls = [shapes(2, length, 5) for length in SWEEP_LENGTHS]
    x, mask, steps = (list(column) for column in zip(*calls, strict=True))
    print(f"sweep over {len(calls)} sequence lengths (each call re-run):", flush=True)
    print(session.sweep(compiled, x=x, mask=mask, steps=steps, progress=True))


def run_demo(*, save: str | None = None, report: str | None = None) -> symdebug.Session:
    """Compile the example, call it at several sizes under capture, print the answers."""
    torch.manual_seed(0)
    compiled = torch.compile(TinyBlock(WIDTH), backend=backend())
    session = capture_calls(compiled)
    explain(session)
    counts = {"the calls above": len(session.compiles)}
    predict_and_rerun(session, compiled)
    counts["the reruns"] = len(session.compiles) - sum(counts.values())
    sweep_lengths(session, compiled)
    counts["the sweep"] = len(session.compiles) - sum(counts.values())
    print(where_compiles_came_from(counts))
    if save:
        session.save(save)
        print(f"session saved to {save}")
    if report:
        Path(report).parent.mkdir(parents=True, exist_ok=True)
        print(f"HTML report written to {session.to_html(report).resolve()}")
    return session

"""A long fuzz of real logs: Hypothesis mutates them for FUZZ_SECONDS (default 180) and every
reader and view must answer (``tests/log_mutations.py``: load, summary, JSON, HTML redacted or
not, why, predict).  The mutations include issue 33's hostile lines: file names of 5000
characters, lines past the reader's limit, NUL bytes, JSON nested 100,000 deep.  Prints how
many mutated logs were tried and each crash, shrunk to its smallest mutation, with its
exception and where it was raised.  Target: 0 crashes (the exit status is 1 otherwise).

The same property runs in ``make test`` with a few dozen examples
(``tests/unit/test_fuzz_hypothesis.py``); here each round draws new examples.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from figures import Recorder, knob, main_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from log_mutations import (
    LOGS,
    MUTATION,
    Mutation,
    apply_mutations,
    every_view,
    read_lines,
    short_line_limit,
)

ROUND = 200  # examples per Hypothesis run; a crash is shrunk before the next round


def one_round(logs: dict[str, list[bytes]], folder: Path, tried: list[int]) -> None:
    """One Hypothesis run of ROUND mutated logs; raises (shrunk) on the first crash."""

    @settings(
        max_examples=ROUND,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(name=st.sampled_from(sorted(logs)), mutations=st.lists(MUTATION, min_size=1, max_size=8))
    def survives(name: str, mutations: list[Mutation]) -> None:
        tried[0] += 1
        path = folder / f"{name}.log"
        path.write_bytes(b"".join(apply_mutations(logs[name], mutations)))
        every_view(path)

    survives()


def crash_of_round(logs: dict[str, list[bytes]], folder: Path, tried: list[int]) -> str:
    """One round's crash, in one line, or ``""``: every crash is reported, the fuzz goes on."""
    try:
        one_round(logs, folder, tried)
    except Exception as error:  # noqa: BLE001
        return f"{type(error).__name__} at {where(error)}: {error}"[:300]
    return ""


def where(error: BaseException) -> str:
    """The innermost symdebug frame the error passed through."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "symdebug" in f.filename]
    last = frames[-1] if frames else None
    return f"{Path(last.filename).name}:{last.lineno} in {last.name}" if last else "?"


def run(recorder: Recorder) -> None:
    seconds = float(knob("FUZZ_SECONDS", 180))
    os.environ["SYMDEBUG_STRICT"] = "0"  # damaged input is counted, as users run it
    short_line_limit()  # a line past the limit is cheap to write: the `huge` mutation
    logs = {name: read_lines(path) for name, path in LOGS.items()}
    tried, crashes = [0], []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() - start < seconds:
            crash = crash_of_round(logs, Path(folder), tried)
            if crash:
                crashes.append(crash)
    print(f"fuzz of real logs ({', '.join(sorted(LOGS))}), {time.monotonic() - start:.0f} s:")
    print(f"  {tried[0]} mutated logs through load, summary, JSON, HTML, why and predict")
    print(f"  crashes: {len(crashes)}")
    for crash in crashes:
        print(f"    {crash}")
    recorder.add("mutated_logs", tried[0], "logs")
    recorder.add("crashes", len(crashes), "crashes", target=("==", 0))


if __name__ == "__main__":
    main_of(run, "fuzz", __file__)

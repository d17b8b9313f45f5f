"""Loading a big saved session: the schema check's cost (issue 33, item 9).

A saved session is untrusted input: ``facts_from_json`` checks it against the shipped schema
before it builds the facts.  The session is the real one of ``many_graphs.py``'s log (from
``bench_tlparse.py``) with its guards repeated, each copy a new id, up to ``BENCH_GUARDS``
(default 200,000).  Measured side by side, best of ``ROUNDS``: parsing and building as before
(no check), the whole load of today (parse, check, build), and the check alone.  The target:
the check adds at most 25% to a load.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from bench_tlparse import LOGS, log_of
from figures import Recorder, knob, main_of

import symdebug
from symdebug.model import json_text, session_check
from symdebug.model.serialize import facts_from_dict, facts_from_json

ROUNDS = 2
#: The most the check may add to a whole load.
TARGET = 0.25


def big_session(guards: int) -> Path:
    """The saved session of the 90-graph log, its guards repeated up to ``guards``."""
    path = LOGS / f"session-{guards}-guards.json"
    if path.exists():
        return path
    document = orjson.loads(symdebug.load_trace(log_of(90)).to_json())
    real = document["guards"]
    copies = [
        dict(guard, id=f"{guard['id']}~{n}")
        for n in range(guards // len(real) + 1)
        for guard in real
    ]
    document["guards"] = real + copies[: guards - len(real)]
    path.write_bytes(json_text.dumps(document))
    return path


def best(step: Callable[[], Any]) -> float:
    """The fastest of ``ROUNDS`` runs of ``step``, in seconds."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def run(recorder: Recorder) -> None:
    guards = int(knob("BENCH_GUARDS", 200000))
    path = big_session(guards)
    text = path.read_bytes()
    print(f"session of {guards:,} guards: {len(text) / 1e6:.0f} MB ({path})")
    document = session_check.parse(text)
    before = best(lambda: facts_from_dict(json_text.loads(text)))
    after = best(lambda: facts_from_json(text))
    alone = best(lambda: session_check.check(document))
    print(f"  load without the check (before): {before:6.2f} s")
    print(f"  load with the check (after):      {after:6.2f} s  ({after / before - 1:+.0%})")
    print(f"  the check alone:                  {alone:6.2f} s  ({alone / before:.0%} of a load)")
    recorder.add("session_mb", len(text) / 1e6, "MB")
    recorder.add("load_unchecked_s", before, "s")
    recorder.add("load_checked_s", after, "s")
    recorder.add("check_s", alone, "s")
    share = alone / before * 100
    recorder.add("check_pct_of_load", share, "%", target=("<=", TARGET * 100))


if __name__ == "__main__":
    main_of(run, "session_load", __file__)

"""A damaged log never crashes symdebug: the log of a scenario run (the pinned torch, every
kind of specialization) is mutated at random (``fuzzing.py``), then read, built into a
Session, rendered as text, JSON and HTML, and asked for predictions (the real logs of
tests/data/traces, mutated the same way: ``unit/test_fuzz_builder.py``)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fuzzing import HUGE, mutate_line
from scenarios import ScenarioRun

import symdebug
from symdebug.renderers.html import render_html
from symdebug.tracefile import reader


@pytest.fixture(autouse=True)
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lenient mode: damaged input must be counted (``bad_event``), never raised."""
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")
    monkeypatch.setattr(reader, "MAX_LINE_CHARS", HUGE)  # a line past it is cheap to write


@pytest.fixture(scope="module")
def real_log(scenario_run: ScenarioRun) -> list[str]:
    (log,) = scenario_run.trace.iterdir()
    return log.read_text().splitlines()


@pytest.mark.parametrize("seed", range(int(os.environ.get("SYMDEBUG_FUZZ_SEEDS", "6"))))
def test_mutated_logs_build_and_render(real_log: list[str], tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    lines = [mutate_line(line, rng) if rng.random() < 0.15 else line for line in real_log]
    path = tmp_path / "mutated.log"
    path.write_text("\n".join(lines) + "\n")
    session = symdebug.load_trace(path)
    assert isinstance(session, symdebug.Session)
    str(session)
    symdebug.Session.from_json(session.to_json())
    render_html(session.facts)
    for compile_ in session.compiles[:3]:
        if compile_.status == "ok":
            session.predict(frame=compile_.name)

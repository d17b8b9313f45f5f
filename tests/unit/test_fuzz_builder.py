"""A damaged log never crashes symdebug: bad lines are counted, odd values are skipped.

The real logs of tests/data/traces are mutated at random (``fuzzing.py``), then read and built
into a Session, rendered as text and HTML (a log of the pinned torch, mutated the same way:
``integration/test_fuzz_scenario_log.py``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fuzzing import mutate_line

import symdebug
from symdebug.renderers.html import render_html


@pytest.fixture(autouse=True)
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lenient mode: damaged input must be counted (``bad_event``), never raised."""
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")


def test_shared_logs_mutated(shared_traces: Path, tmp_path: Path) -> None:
    rng = random.Random(7)
    for source in sorted(shared_traces.glob("*.log")):
        lines = source.read_text(errors="replace").splitlines()
        mutated = [mutate_line(line, rng) if rng.random() < 0.2 else line for line in lines]
        path = tmp_path / source.name
        path.write_text("\n".join(mutated) + "\n")
        session = symdebug.load_trace(path)
        assert isinstance(session, symdebug.Session)
        str(session)
        render_html(session.facts)

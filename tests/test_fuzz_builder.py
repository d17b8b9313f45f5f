"""A damaged log never crashes symdebug: bad lines are counted, odd values are skipped.

Real logs from the shared fixtures and from a run of our own are mutated at random (values
replaced by other types, keys dropped, lines cut), then read and built into a Session,
rendered as text, JSON and HTML.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from conftest import ScenarioRun

import symdebug
from symdebug.renderers.html import render_html

HERE = Path(__file__).resolve().parent
ODD_VALUES = [None, 0, -1, "", "x", [], {}, [1, "a"], {"a": None}, 3.5, True, "s77 > ", "L['x']"]


@pytest.fixture(scope="module")
def real_log(scenario_run: ScenarioRun) -> list[str]:
    (log,) = scenario_run.trace.iterdir()
    return log.read_text().splitlines()


def mutate_value(value: object, rng: random.Random) -> object:
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        copy = dict(value)
        if rng.random() < 0.3:
            del copy[key]
        else:
            copy[key] = mutate_value(copy[key], rng)
        return copy
    if isinstance(value, list) and value and rng.random() < 0.5:
        copy = list(value)
        index = rng.randrange(len(copy))
        copy[index] = mutate_value(copy[index], rng)
        return copy
    return rng.choice(ODD_VALUES)


def mutate_line(line: str, rng: random.Random) -> str:
    prefix, sep, rest = line.partition("] ")
    if not sep or line.startswith("\t"):
        return line[: rng.randrange(len(line) + 1)] if rng.random() < 0.3 else line
    try:
        envelope = json.loads(rest)
    except ValueError:
        return line
    return prefix + sep + json.dumps(mutate_value(envelope, rng))


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

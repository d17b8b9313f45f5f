"""The same run, captured live and written to TORCH_TRACE, gives the same answers."""

from __future__ import annotations

import pytest
from scenarios import ScenarioRun

import symdebug


@pytest.fixture(scope="module")
def both(scenario_run: ScenarioRun) -> tuple[symdebug.Session, symdebug.Session]:
    from_trace = symdebug.load_trace(scenario_run.trace)
    assert isinstance(from_trace, symdebug.Session)
    return symdebug.load(scenario_run.live), from_trace


def test_same_compiles(both: tuple[symdebug.Session, symdebug.Session]) -> None:
    live, trace = both
    key = [(c.compile_id, c.name, c.status) for c in live.compiles]
    assert key == [(c.compile_id, c.name, c.status) for c in trace.compiles]
    assert len(key) >= 10


def test_same_specializations(both: tuple[symdebug.Session, symdebug.Session]) -> None:
    live, trace = both

    def key(s: symdebug.Session) -> list[tuple[str, str, object]]:
        return sorted((sp.compile_id, sp.source, sp.value) for sp in s.specializations)

    assert key(live) == key(trace) and key(live)


def test_same_recompiles_and_causes(both: tuple[symdebug.Session, symdebug.Session]) -> None:
    live, trace = both

    def key(s: symdebug.Session) -> list[tuple[str, str | None, str]]:
        return [(r.compile_id, r.failed_entry, r.cause) for r in s.recompiles]

    assert key(live) == key(trace)
    causes = {cause for *_, cause in key(live)}
    assert {
        "user_branch",
        "zero_one",
        "static_by_default",
        "int_specialized",
        "duck_sizing",
        "inductor",
    } <= causes


def test_same_guards_and_causes(both: tuple[symdebug.Session, symdebug.Session]) -> None:
    live, trace = both

    def key(s: symdebug.Session) -> list[tuple[str, str, str]]:
        return [(g.compile_id, g.expr, g.cause) for g in s.guards if g.status == "installed"]

    assert key(live) == key(trace)

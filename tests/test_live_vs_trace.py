"""The same run, captured live and written to TORCH_TRACE, gives the same answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import symdebug

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[symdebug.Session, symdebug.Session]:
    out = tmp_path_factory.mktemp("live_vs_trace")
    saved, trace_dir = out / "live.json", out / "trace"
    env = dict(os.environ, TORCH_TRACE=str(trace_dir))
    subprocess.run(
        [sys.executable, str(HERE / "scenarios.py"), str(saved)], check=True, env=env, timeout=600
    )
    from_trace = symdebug.load_trace(trace_dir)
    assert isinstance(from_trace, symdebug.Session)
    return symdebug.load(saved), from_trace


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

"""Every real log in tests/data/traces builds into a Session with the facts it holds.

The numbers are regression anchors, read from the model before the pipeline refactor:
compiles (id, frame, status), recompiles and their causes, specializations, problems of the
reader.  None of these logs has ``guard_added_fast`` (see the README there), so no guard is
found in any.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import symdebug
from symdebug.model.words import totals


@dataclass(frozen=True)
class Expected:
    compiles: list[tuple[str, str, str]]  # (compile id, frame, status)
    specializations: int = 0
    causes: list[str] = field(default_factory=list)  # of the recompiles, in order
    problems: dict[str, int] = field(default_factory=dict)


#: These runs compiled with automatic dynamic off (``dynamic=False``; their Dynamo config says
#: ``automatic_dynamic_shapes: false``): a changing size never became dynamic.
DYNAMIC_FALSE = "dynamic_false"
STATIC = "static_by_default"
RANK_1 = [(f"0/{i}", "kernel", "ok") for i in range(15)]  # one frame recompiled 14 times
RANK_3 = [(f"0/{i}", "kernel", "ok") for i in range(7)]
FAILED = [("0/0", "fn", "failed")]
LOGS = {
    "artifacts.log": Expected([("0/0", "fn", "ok")], specializations=4),
    "chromium_events.log": Expected(FAILED),
    "comp_failure.log": Expected(FAILED),
    "comp_metrics.log": Expected(  # old format: a graph break, two resume functions
        [
            ("0/0", "fn", "ok"),
            ("1/0", "torch_dynamo_resume_in_fn_at_9551", "ok"),
            ("2/0", "torch_dynamo_resume_in_fn_at_9553", "ok"),
        ]
    ),
    # A draft export: no Dynamo compile, one export (its guard from ``guard_added``).
    "export_guard_added.log": Expected([("export/0", "export", "ok")], problems={"payload_md5": 1}),
    "links.log": Expected([("0/0", "forward", "ok")], specializations=2),
    "simple.log": Expected([("0/0", "forward", "ok")], specializations=4),
    "simple_corrupted_json.log": Expected(
        [("0/0", "forward", "ok")], specializations=4, problems={"payload_md5": 1}
    ),
    "multi_rank_logs/dedicated_log_torch_trace_rank_0.log": Expected(FAILED),
    # Compressed, as logs are often shared: a rank directory may mix both.
    "multi_rank_logs/dedicated_log_torch_trace_rank_1.log.gz": Expected(
        RANK_1, specializations=30, causes=[DYNAMIC_FALSE] * 14
    ),
    "multi_rank_logs/dedicated_log_torch_trace_rank_2.log": Expected(FAILED),
    "multi_rank_logs/dedicated_log_torch_trace_rank_3.log": Expected(
        RANK_3, specializations=14, causes=[DYNAMIC_FALSE] * 6
    ),
    "multi_rank_messy_input/dedicated_log_torch_trace_rank_0.log": Expected(
        [("0/0", "forward", "ok")], specializations=4
    ),
    "multi_rank_messy_input/dedicated_log_torch_trace_rank_1.log": Expected(
        [("0/0", "forward", "ok")], specializations=4
    ),
}


def facts_of(session: symdebug.Session) -> Expected:
    return Expected(
        compiles=[(c.compile_id, c.name, c.status) for c in session.compiles],
        specializations=len(session.specializations),
        causes=[r.cause for r in session.recompiles],
        problems=dict(session.problems),
    )


def test_the_table_names_every_log(shared_traces: Path) -> None:
    logs = {
        p.relative_to(shared_traces).as_posix()
        for p in shared_traces.rglob("*.log*")
        if p.stat().st_size > 0
    }
    assert logs == set(LOGS)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_log_builds_with_its_facts(shared_traces: Path, name: str) -> None:
    session = symdebug.load_trace(shared_traces / name)
    assert isinstance(session, symdebug.Session)
    assert facts_of(session) == LOGS[name]
    assert len(session.guards) == (1 if name.startswith("export") else 0)
    assert all(r.failed_entry is not None for r in session.recompiles)
    counts = totals(len(session.compiles), len(session.recompiles), len(session.guards))
    assert (counts if session.compiles else "no compiles captured") in str(session)


def test_multi_rank_directory(shared_traces: Path) -> None:
    loaded = symdebug.load_trace(shared_traces / "multi_rank_logs")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1, 2, 3]
    for rank in loaded.ranks:
        log = f"multi_rank_logs/dedicated_log_torch_trace_rank_{rank}.log"
        log = log if log in LOGS else f"{log}.gz"
        assert facts_of(loaded[rank]) == LOGS[log], rank
    # Rank 1 recompiles one frame 14 times: each time the previous entry's static batch.
    rank1 = loaded[1]
    assert [(r.compile_id, r.failed_entry) for r in rank1.recompiles] == [
        (f"0/{i}", f"0/{i - 1}") for i in range(1, 15)
    ]
    specialized = [(r.specialization.source, r.specialization.value) for r in rank1.recompiles]
    assert specialized == [("L['x'].size()[0]", n) for n in range(2, 16)]
    assert [c.fail_type for c in loaded[0].compiles] == ["BackendCompilerFailed"]
    summary = str(loaded)
    assert "rank 1: 15 compiles, 14 recompiles" in summary
    assert "rank 3: 7 compiles, 6 recompiles" in summary


def test_messy_directory_skips_stray_files(shared_traces: Path) -> None:
    loaded = symdebug.load_trace(shared_traces / "multi_rank_messy_input")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1]  # the empty log and the .txt file are skipped
    for rank in loaded.ranks:
        log = f"multi_rank_messy_input/dedicated_log_torch_trace_rank_{rank}.log"
        assert facts_of(loaded[rank]) == LOGS[log], rank


def test_corrupt_payload_changes_nothing_else(shared_traces: Path) -> None:
    corrupt = symdebug.load_trace(shared_traces / "simple_corrupted_json.log")
    clean = symdebug.load_trace(shared_traces / "simple.log")
    assert corrupt.problems == {"payload_md5": 1} and clean.problems == {}
    assert [(sp.source, sp.value, sp.cause) for sp in corrupt.specializations] == [
        ("L['x'].size()[0]", 1, STATIC),
        ("L['x'].size()[1]", 320, STATIC),
        ("L['x'].size()[2]", 128, STATIC),
        ("L['x'].size()[3]", 128, STATIC),
    ]
    key = [(sp.compile_id, sp.source, sp.value, sp.cause) for sp in clean.specializations]
    assert key == [(sp.compile_id, sp.source, sp.value, sp.cause) for sp in corrupt.specializations]

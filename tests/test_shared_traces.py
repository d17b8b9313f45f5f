"""Every real log in ../shared/data/traces loads into a Session; bad input is reported."""

from __future__ import annotations

from pathlib import Path

import symdebug


def test_every_shared_log_loads(shared_traces: Path) -> None:
    for path in sorted(shared_traces.rglob("*.log")):
        if path.stat().st_size == 0:
            continue
        session = symdebug.load_trace(path)
        assert isinstance(session, symdebug.Session)
        str(session)  # the summary renders


def test_multi_rank_directory(shared_traces: Path) -> None:
    loaded = symdebug.load_trace(shared_traces / "multi_rank_logs")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1, 2, 3]
    rank1 = loaded[1]
    frames = {}
    for compile_ in rank1.compiles:
        frames.setdefault(compile_.frame_id, []).append(compile_)
    assert max(len(c) for c in frames.values()) >= 15  # rank 1 recompiles one frame 15 times
    assert len(rank1.recompiles) >= 14
    assert "rank 1" in str(loaded)


def test_messy_directory_skips_stray_files(shared_traces: Path) -> None:
    loaded = symdebug.load_trace(shared_traces / "multi_rank_messy_input")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert len(loaded) == 2


def test_old_format_and_corrupt_payload(shared_traces: Path) -> None:
    old = symdebug.load_trace(shared_traces / "comp_metrics.log")
    assert old.compiles
    corrupt = symdebug.load_trace(shared_traces / "simple_corrupted_json.log")
    clean = symdebug.load_trace(shared_traces / "simple.log")
    assert corrupt.problems == {"payload_md5": 1}
    assert len(corrupt.compiles) == len(clean.compiles)


def test_export_guard_added_log(shared_traces: Path) -> None:
    session = symdebug.load_trace(shared_traces / "export_guard_added.log")
    assert isinstance(session, symdebug.Session)

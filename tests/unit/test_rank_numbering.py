"""Logs of a directory are never lost to one another (issue 14): a second log of a rank and
a log without a rank are each kept, after the last real rank, and the summary says so; each
is named for what it is (issue 33), never numbered as a rank it is not."""

from __future__ import annotations

import shutil
from pathlib import Path

import symdebug
from symdebug.loading import MultiRankSession

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"


def test_second_log_of_a_rank_and_a_log_without_rank_are_kept(tmp_path: Path) -> None:
    rank0 = TRACES / "multi_rank_logs" / "dedicated_log_torch_trace_rank_0.log"
    shutil.copy(rank0, tmp_path / "dedicated_log_torch_trace_rank_0_first.log")
    shutil.copy(rank0, tmp_path / "dedicated_log_torch_trace_rank_0_second.log")
    shutil.copy(TRACES / "comp_metrics.log", tmp_path / "unranked.log")
    loaded = symdebug.load_trace(tmp_path, jobs=1)
    assert isinstance(loaded, MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1, 2]  # three logs, three sessions
    assert len(loaded.notes) == 2
    assert any("is a second log of rank 0: shown as rank 0 (second log)" in n for n in loaded.notes)
    assert any("unranked.log has no rank: shown as log without rank" in n for n in loaded.notes)
    assert "note: " in str(loaded)
    assert [loaded.label(key) for key in sorted(loaded.ranks)] == [
        "rank 0",
        "rank 0 (second log)",
        "log without rank",
    ]

"""Damaged input and what the summary says of it (issue 14): a truncated ``.log.gz`` keeps
the events before the damage, a ``.log.gz`` that is no gzip reads as a problem shown even
with no compile, neither loses the other ranks of a directory; interleaved frames are one
section each."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import symdebug
from symdebug.loading import MultiRankSession
from symdebug.tracefile import read_trace_file

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
RANK0 = TRACES / "multi_rank_logs" / "dedicated_log_torch_trace_rank_0.log"


def _truncated(path: Path) -> Path:
    data = gzip.compress(RANK0.read_bytes())
    path.write_bytes(data[: len(data) // 2])
    return path


def test_truncated_gzip_keeps_what_came_before(tmp_path: Path) -> None:
    whole = read_trace_file(RANK0)
    cut = read_trace_file(_truncated(tmp_path / "cut.log.gz"))
    assert 0 < len(cut.events) < len(whole.events)
    kinds = cut.problem_counts()
    assert kinds.get("damaged_file") == 1, kinds
    assert "events before the damage are kept" in cut.problems[-1].detail


def test_no_gzip_at_all(tmp_path: Path) -> None:
    fake = tmp_path / "fake.log.gz"
    fake.write_bytes(b"this is not gzip\n" * 10)
    stream = read_trace_file(fake)
    assert stream.events == [] and stream.problem_counts() == {"damaged_file": 1}


def test_one_damaged_rank_loses_no_other(tmp_path: Path) -> None:
    shutil.copy(RANK0, tmp_path / "dedicated_log_torch_trace_rank_0.log")
    _truncated(tmp_path / "dedicated_log_torch_trace_rank_1.log.gz")
    (tmp_path / "dedicated_log_torch_trace_rank_2.log.gz").write_bytes(b"garbage" * 50)
    loaded = symdebug.load_trace(tmp_path, jobs=1)
    assert isinstance(loaded, MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1, 2]
    assert loaded[0].problems == {}
    assert loaded[2].problems == {"damaged_file": 1}
    assert "damaged_file 1" in str(loaded[2])


def test_interleaved_frames_are_one_section_each() -> None:
    from symdebug.model.types import Compile, Facts
    from symdebug.renderers.console import render_summary

    def compile_(frame: int, number: int, name: str) -> Compile:
        return Compile(f"{frame}/{number}", frame, number, name=name, filename="/w/a.py")

    facts = Facts(compiles=[compile_(0, 0, "f"), compile_(1, 0, "g"), compile_(0, 1, "f")])
    text = render_summary(facts)
    assert text.count("frame f (") == 1 and text.count("frame g (") == 1
    assert "frame f (/w/a.py:0): 2 compiles" in text


def test_a_binary_file_says_it_is_no_log(tmp_path: Path) -> None:
    path = tmp_path / "model.bin.log"
    path.write_bytes(bytes(range(256)) * 64)
    text = str(symdebug.load_trace(path))
    assert "no compiles captured" in text
    assert "lines are no TORCH_TRACE record (no glog prefix): is it a TORCH_TRACE log?" in text
    assert "problems: bad_prefix" in text

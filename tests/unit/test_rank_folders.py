"""A folder of rank logs is read as it is found (issue 33, point 4): only its regular files
are read; a link out of it, a FIFO, a directory named like a log and a link loop are each
refused with a note; a log that cannot be read is that rank's problem alone; a second log of
rank 0 is called so, never "rank 1"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import symdebug
from symdebug.cli import main
from symdebug.loading import MultiRankSession, read_or_why

RANK_LOGS = Path(__file__).resolve().parents[1] / "data" / "traces" / "multi_rank_logs"
RANK0 = RANK_LOGS / "dedicated_log_torch_trace_rank_0.log"
RANK2 = RANK_LOGS / "dedicated_log_torch_trace_rank_2.log"
KEY = "KEY-MATERIAL-4471"


def _log(rank: int | str) -> str:
    return f"dedicated_log_torch_trace_rank_{rank}.log"


def _loaded(folder: Path) -> MultiRankSession:
    loaded = symdebug.load_trace(folder, jobs=1)
    assert isinstance(loaded, MultiRankSession)
    return loaded


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """Ranks 0 and 1 (rank 1 through a link inside the folder), then what is no log of it."""
    key = tmp_path / "id_key.log"
    key.write_text(f"-----BEGIN PRIVATE KEY-----\n{KEY}\n-----END PRIVATE KEY-----\n")
    folder = tmp_path / "job"
    (folder / "real").mkdir(parents=True)
    shutil.copy(RANK0, folder / _log(0))
    shutil.copy(RANK2, folder / "real" / "rank1.txt")
    (folder / _log(1)).symlink_to(Path("real") / "rank1.txt")  # inside the folder: read
    (folder / _log(3)).symlink_to(key)  # outside: today its lines land in the report
    os.mkfifo(folder / _log(4))  # opening it would wait for a writer forever
    (folder / _log(5)).mkdir()
    (folder / _log(6)).symlink_to(folder / _log(6))  # a link to itself
    return folder


def test_only_the_folders_regular_logs_are_read(hostile: Path) -> None:
    loaded = _loaded(hostile)
    assert sorted(loaded.ranks) == [0, 1]
    assert loaded.notes == [
        f"{_log(3)} links outside the folder: not read",
        f"{_log(4)} is a FIFO (named pipe): not read",
        f"{_log(5)} is a directory: not read",
        f"{_log(6)} cannot be looked at (a link loop): not read",
    ]
    said = [str(loaded), *(session.to_json() for session in loaded.ranks.values())]
    assert not any(KEY in text for text in said)
    assert all(f"note: {note}" in said[0] for note in loaded.notes)


def test_refused_entries_are_said_in_the_summary_and_on_the_ranks_page(
    hostile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summary", str(hostile), "--jobs", "1"]) == 0
    assert f"note: {_log(4)} is a FIFO (named pipe): not read" in capsys.readouterr().out
    assert (
        main(["report", str(hostile), "--jobs", "1", "-o", str(tmp_path / "out" / "r.html")]) == 0
    )
    written = sorted(path.name for path in (tmp_path / "out").iterdir())
    assert written == ["r.rank0.html", "r.rank1.html", "r.ranks.html"]
    page = (tmp_path / "out" / "r.ranks.html").read_text(encoding="utf-8")
    assert f'<li class="note">{_log(3)} links outside the folder: not read</li>' in page
    assert not any(KEY in (tmp_path / "out" / name).read_text() for name in written)


def test_a_log_that_cannot_be_read_is_the_problem_of_its_rank_alone(tmp_path: Path) -> None:
    assert read_or_why(tmp_path / "gone.log").startswith("FileNotFoundError: ")
    assert read_or_why(tmp_path).startswith("IsADirectoryError: ")  # root cannot read it either
    shutil.copy(RANK0, tmp_path / _log(0))
    shutil.copy(RANK2, tmp_path / _log(2))
    (tmp_path / f"{_log(1)}.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip at all \xff\xfe")
    loaded = _loaded(tmp_path)
    assert sorted(loaded.ranks) == [0, 1, 2]
    assert "  rank 1: 0 compiles, 0 recompiles; problems reading its log: damaged_file 1" in str(
        loaded
    )
    assert "  rank 0: 1 compile, 0 recompiles\n" in str(loaded)


def test_a_second_log_of_rank_0_is_labelled_not_renumbered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "job"
    folder.mkdir()
    shutil.copy(RANK0, folder / _log(0))
    shutil.copy(RANK0, folder / "dedicated_log_torch_trace_rank_0_rerun.log")
    loaded = _loaded(folder)
    assert loaded.label(1) == "rank 0 (second log)" and loaded[1].facts.rank == 0
    said = str(loaded)
    assert "  rank 0 (second log): 1 compile" in said and "rank 1" not in said
    assert "rank_0_rerun.log is a second log of rank 0: shown as rank 0 (second log)" in said
    assert main(["summary", str(folder), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "=== rank 0 (second log)" in out and "rank 1" not in out
    assert main(["report", str(folder), "--jobs", "1", "-o", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.ranks.html").read_text(encoding="utf-8")
    assert '<a href="r.rank0-second-log.html">rank 0 (second log)</a>' in page
    assert "rank 1" not in page and not (tmp_path / "r.rank1.html").exists()
    assert "shown as rank 0 (second log)</li>" in page

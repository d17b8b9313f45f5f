"""The command line on the real logs of tests/data/traces, and on a path that is not there."""

from __future__ import annotations

from pathlib import Path

import pytest

from symdebug.cli import main


def test_missing_path_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary", str(tmp_path / "missing")]) == 2
    assert "missing" in capsys.readouterr().err


def test_multi_rank_directory(shared_traces: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary", str(shared_traces / "multi_rank_logs")]) == 0
    out = capsys.readouterr().out
    assert out.count("=== rank ") == 4  # one section per rank
    assert "=== ranks compared" in out
    assert "15 compiles, 14 recompiles, 0 guards" in out  # rank 1
    assert "recompiles by cause: dynamic_false 14" in out
    assert "recompiles by cause: dynamic_false 6" in out  # rank 3
    assert out.count("[failed: BackendCompilerFailed]") == 2  # ranks 0 and 2

"""The command line on bad input says what is wrong in one line, exit status 2, never a
traceback (issue 14); a reader that leaves early (``| head``) is no error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import symdebug
from symdebug.cli import main

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
SYMDEBUG = str(Path(sys.executable).with_name("symdebug"))


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("symdebug: ") and "Traceback" not in err
    return err


def test_empty_path_is_not_the_current_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no TORCH_TRACE path given" in _error(["summary", ""], capsys)


def test_a_missing_rank_is_named_with_the_ranks_there(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(["summary", str(TRACES / "multi_rank_logs"), "--rank", "7"], capsys)
    assert "no rank 7" in err and "ranks: 0, 1, 2, 3" in err


def test_output_that_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(["report", str(TRACES / "simple.log"), "-o", str(tmp_path)], capsys)
    assert "Is a directory" in err


@pytest.mark.slow
def test_reader_leaving_early_is_no_error() -> None:
    command = f"'{SYMDEBUG}' summary '{TRACES / 'multi_rank_logs'}' | head -1"
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "=== rank 0"
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an object"),
        ('{"schema_version": 7}', "missing 'guards'"),
    ],
)
def test_malformed_saved_session(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        symdebug.Session.from_json(text)


@pytest.mark.parametrize(("output", "stem"), [("./rep", "rep"), ("new/dir/r.v2.html", "r.v2")])
def test_multi_rank_report_names_sit_beside_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str, stem: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report", str(TRACES / "multi_rank_logs"), "-o", output]) == 0
    folder = (tmp_path / output).parent
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"{stem}.rank{r}.html" for r in range(4)] + [f"{stem}.ranks.html"]

"""A log reads the same everywhere (issue 33 item 10): the document depends on the log alone,
never on files the reading machine holds at the paths the log names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import symdebug

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
#: The compiled frame's file in ``simple.log``: ``forward`` at line 11123 of a test module.
LOGGED = "/data/users/xmfan/a/pytorch/test/inductor/test_torchinductor.py"
FIRST_LINE = 11123


def _log_naming(tmp_path: Path, filename: str) -> Path:
    """``simple.log`` with its compiled frame's file renamed ``filename``."""
    log = tmp_path / "renamed.log"
    log.write_text((TRACES / "simple.log").read_text().replace(LOGGED, filename))
    return log


def _document(log: Path, name: str) -> str:
    """The session's document, its file ``name`` said ``<file>``.

    Less the examples of problems: they quote payload digests, which the name changes.
    """
    session = symdebug.load_trace(log)
    assert isinstance(session, symdebug.Session)
    document = json.loads(session.to_json().replace(name, "<file>"))
    document.pop("problem_examples")
    return json.dumps(document)


def _source_at(path: Path) -> None:
    """A file that would rename the frame (``Model.forward``) if the reader consulted it."""
    padding = "\n" * (FIRST_LINE - 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{padding}class Model:\n    def forward(self, x):\n        return x\n")


def _read_with_and_without(tmp_path: Path, prefix: str) -> tuple[str, str]:
    """The documents of two logs alike but for one file name, ``<prefix>holding/model.py``
    (a file there) or ``<prefix>bare/model.py`` (none), each name said ``<file>``.

    Two names, so that nothing a reader remembers of one file can hide the other.
    """
    _source_at(tmp_path / "holding" / "model.py")
    documents = []
    for side in ("holding", "bare"):
        name = f"{prefix}{side}/model.py"
        documents.append(_document(_log_naming(tmp_path, name), name))
    return documents[0], documents[1]


def test_files_at_the_logged_paths_change_nothing(tmp_path: Path) -> None:
    present, absent = _read_with_and_without(tmp_path, f"{tmp_path}/")
    assert present == absent
    assert "Model.forward" not in present


def test_a_short_name_reads_alike_in_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A relative name, as torch shortens one: resolved against no folder of this machine.
    monkeypatch.chdir(tmp_path)
    present, absent = _read_with_and_without(tmp_path, "")
    assert present == absent
    assert "Model.forward" not in present


def test_a_file_name_too_long_for_the_filesystem_reads(tmp_path: Path) -> None:
    log = _log_naming(tmp_path, "a" * 5000 + "/model.py")
    session = symdebug.load_trace(log)
    assert isinstance(session, symdebug.Session)
    assert [c.filename for c in session.facts.compiles] == ["a" * 5000 + "/model.py"]
    assert "model.py" in str(session)


def test_sources_read_only_when_asked(tmp_path: Path) -> None:
    # The opt-in for a log read on the machine that ran the program: its files then count.
    _source_at(tmp_path / "holding" / "model.py")
    log = _log_naming(tmp_path, f"{tmp_path}/holding/model.py")
    asked = symdebug.load_trace(log, sources=True)
    assert isinstance(asked, symdebug.Session)
    assert "Model.forward" in asked.to_json()
    assert "Model.forward" not in symdebug.load_trace(log).to_json()  # type: ignore[union-attr]


def test_the_cli_reads_sources_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from symdebug.cli import main

    _source_at(tmp_path / "holding" / "model.py")
    log = str(_log_naming(tmp_path, f"{tmp_path}/holding/model.py"))
    assert main(["summary", log]) == 0
    assert "Model.forward" not in capsys.readouterr().out
    assert main(["summary", log, "--sources"]) == 0
    assert "Model.forward" in capsys.readouterr().out

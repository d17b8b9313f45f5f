"""``--redact`` and ``redact=True`` hide what the program compared and where it lives
(issue 33, points 2 and 3).

tests/data/programs/string_mode.py compares a string argument with "secret-token-123"; it
runs from a folder with a secret name.  The plain views hold the string, the folder and
torch's ``File "..."`` stack text; the redacted ones (each rank's report, the ranks page, the
saved JSON, from a live capture and from the logs) hold none of them anywhere."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from programs import PROGRAMS, captured

import symdebug
from symdebug.cli import main
from symdebug.loading import MultiRankSession

SECRET_DIR = "SECRET_DIR_5521"
COMPARED = "secret-token-123"
#: Torch's stack text (``File "/x/y.py", line 3``), as HTML or JSON escapes its quote.
STACK_TEXT = re.compile(r'File (?:"|\\"|&quot;)')
#: The modes each rank's run is given: rank 0 recompiles for "public", rank 1 does not.
RANK_MODES = {0: (COMPARED, "public"), 1: (COMPARED,)}


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two rank logs of string_mode.py, run from a folder with a secret name."""
    root = tmp_path_factory.mktemp("compared")
    (root / SECRET_DIR).mkdir()
    script = shutil.copy(PROGRAMS / "string_mode.py", root / SECRET_DIR / "string_mode.py")
    folder = root / "job"
    folder.mkdir()
    for rank, modes in RANK_MODES.items():
        env = dict(os.environ, TORCH_TRACE=str(root / f"trace{rank}"))
        subprocess.run([sys.executable, script, *modes], check=True, env=env, timeout=300)
        (log,) = (root / f"trace{rank}").iterdir()
        shutil.copy(log, folder / f"job_rank_{rank}.log")
    return folder


def _leaks(text: str, root: Path) -> list[str]:
    """Which of the secrets ``text`` holds."""
    found = [secret for secret in (COMPARED, SECRET_DIR, str(root)) if secret in text]
    return found + ["stack text"] * bool(STACK_TEXT.search(text))


def test_report_of_a_rank_folder_redacts_every_page(job: Path, tmp_path: Path) -> None:
    root = job.parent
    args = ["report", str(job), "--jobs", "1", "-o"]
    assert main([*args, str(tmp_path / "plain" / "job.html")]) == 0
    plain = (tmp_path / "plain" / "job.ranks.html").read_text(encoding="utf-8")
    assert _leaks(plain, root) == [COMPARED, SECRET_DIR, str(root), "stack text"]  # can fail
    assert main([*args, str(tmp_path / "published" / "job.html"), "--redact"]) == 0
    pages = sorted((tmp_path / "published").iterdir())
    assert [page.name for page in pages] == ["job.rank0.html", "job.rank1.html", "job.ranks.html"]
    for page in pages:
        assert _leaks(page.read_text(encoding="utf-8"), root) == [], page.name
    shared = pages[-1].read_text(encoding="utf-8")
    assert "string_mode.py" in shared and "mode == (redacted)" in shared  # still says where


def test_ranks_page_redacted_from_the_api(job: Path, tmp_path: Path) -> None:
    loaded = symdebug.load_trace(job, jobs=1)
    assert isinstance(loaded, MultiRankSession)
    page = loaded.to_html(tmp_path / "ranks.html", redact=True).read_text(encoding="utf-8")
    assert _leaks(page, job.parent) == []
    assert "first differs at compile #1 (recompile)" in page


def _views(session: symdebug.Session, folder: Path, *, redact: bool) -> str:
    """The session's HTML report and saved JSON, redacted or not, as one text."""
    folder.mkdir()
    html = session.to_html(folder / "report.html", redact=redact).read_text(encoding="utf-8")
    session.save(folder / "session.json", redact=redact)
    return html + (folder / "session.json").read_text(encoding="utf-8")


def test_compared_string_hidden_everywhere_from_the_log(job: Path, tmp_path: Path) -> None:
    session = symdebug.load_trace(job / "job_rank_0.log")
    assert isinstance(session, symdebug.Session)
    assert COMPARED in _views(session, tmp_path / "plain", redact=False)
    assert COMPARED in session.facts.recompiles[0].reasons[0]
    assert _leaks(_views(session, tmp_path / "published", redact=True), job.parent) == []


def test_compared_string_hidden_everywhere_from_a_live_capture(tmp_path: Path) -> None:
    session = captured("string_mode")
    assert COMPARED in _views(session, tmp_path / "plain", redact=False)
    shared = _views(session, tmp_path / "published", redact=True)
    assert COMPARED not in shared
    saved = symdebug.load(tmp_path / "published" / "session.json")  # still a session document
    assert len(saved.facts.recompiles) == len(session.facts.recompiles) == 1
    assert "mode == (redacted)" in saved.facts.recompiles[0].reasons[0]

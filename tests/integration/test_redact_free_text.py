"""``--redact`` removes every path and torch's free text (issue 14): restart and fail
reasons, graph breaks' explanations and exception texts quote code and directories.  The
programs run from a folder with a secret name: the plain report has it, the redacted one
nowhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from programs import PROGRAMS

import symdebug

SECRET = "SECRET_DIR_8317"


@pytest.mark.parametrize("name", ["graph_breaks", "unbacked"])
def test_redacted_report_has_no_path_nor_free_text(name: str, tmp_path: Path) -> None:
    folder = tmp_path / SECRET
    folder.mkdir()
    script = shutil.copy(PROGRAMS / f"{name}.py", folder / f"{name}.py")
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"))
    subprocess.run([sys.executable, str(script)], check=True, env=env, timeout=300)
    session = symdebug.load_trace(tmp_path / "trace")
    assert isinstance(session, symdebug.Session)
    plain = session.to_html(tmp_path / "plain.html").read_text(encoding="utf-8")
    assert SECRET in plain  # the test can fail: the secret is there to be removed
    shared = session.to_html(tmp_path / "shared.html", redact=True).read_text(encoding="utf-8")
    assert SECRET not in shared
    assert str(tmp_path) not in shared

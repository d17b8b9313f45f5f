"""Installing symdebug leaves the user's torch as it is, on every supported release.

pip resolves symdebug's requirements in this venv (``--dry-run --report``), as a user's
``pip install symdebug`` would: the only thing it would install is symdebug itself.  The
machine's own pip cap on torch is lifted for the run (``PIP_CONSTRAINT=/dev/null``): it is
this machine's, not a user's, and with it pip would move a torch 2.15 venv for any requirement.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pip_install_of_symdebug_keeps_the_installed_torch(tmp_path: Path) -> None:
    before = metadata.version("torch")
    report = tmp_path / "report.json"
    env = dict(os.environ, PIP_CONSTRAINT="/dev/null")
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--no-build-isolation"]
    subprocess.run(
        [*command, "--quiet", "--report", str(report), str(ROOT)],
        check=True, env=env, timeout=600, capture_output=True,
    )  # fmt: skip
    would_install = {
        item["metadata"]["name"]: item["metadata"]["version"]
        for item in json.loads(report.read_text(encoding="utf-8"))["install"]
    }
    assert list(would_install) == ["symdebug"], would_install
    assert metadata.version("torch") == before

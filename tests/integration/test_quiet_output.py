"""The test run's own output carries no warnings torch raises in its own cleanup (issue 32,
item 17): each is filtered in pyproject.toml where it arises, with the reason beside it.

Run in a subprocess, as CI runs pytest: the same tests with the filters switched off show
the warnings, so the filters (not a lucky run) keep the output quiet.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from torch_differences import since

ROOT = Path(__file__).resolve().parents[2]
#: Tests that compile, reset Dynamo and compile again: torch's weakref callbacks fire there.
NOISY = [
    "tests/integration/test_redefinitions.py",
    "tests/integration/test_recompile_mechanisms.py",
]


def _summary(*options: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *NOISY, *options],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_no_warnings_in_the_output() -> None:
    selected = ["-k", "redefin or dtype or float"]
    unfiltered = _summary(*selected, "-o", "filterwarnings=")
    if since("no_weakref_cleanup_warning"):  # torch 2.15 cleans up quietly: nothing to filter
        assert "warning" not in unfiltered
    else:
        assert re.search(r"\d+ warnings?", unfiltered)
    assert "warning" not in _summary(*selected)

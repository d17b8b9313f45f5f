"""The unit tier is collected without torch: a process in which ``import torch`` raises
collects every test of ``tests/unit`` (a test file that imports torch, or symdebug code that
imports it, fails its collection there).  Its tests do not import it either
(``conftest.py``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

UNIT = Path(__file__).resolve().parent
ROOT = UNIT.parents[1]

# Every import of torch or one of its modules raises, as if torch were not installed.
COLLECT = """
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError(f"the unit tier imports no torch: import {name}")
        return None

sys.meta_path.insert(0, NoTorch())
import pytest

# A pytest subprocess collecting the whole tier: run by `make test`, not `make test-fast`.
pytestmark = pytest.mark.slow

# Collected only, so its asserts need no rewriting (it costs seconds).
options = ["--collect-only", "-q", "--assert=plain", "-p", "no:cacheprovider"]
sys.exit(pytest.main([*options, sys.argv[1]]))
"""


def test_the_unit_tier_is_collected_without_torch() -> None:
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, str(UNIT)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    errors = done.stdout.find("\n====")  # after the list of tests: the errors, if any
    assert done.returncode == 0, done.stdout[errors:] + done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ tests collected in .*", last), last  # no error, none deselected

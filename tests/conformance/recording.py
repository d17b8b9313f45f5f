"""One recording of a corpus program: a fresh process captures it live under ``TORCH_TRACE``.

The live capture's answers come back as JSON; the log the same run wrote is kept, gzipped.
Both come from one run, so their call stacks are the same and they can be compared.
``scripts/record_conformance.py`` records the corpus with it, and the conformance tier
records a few programs again to check that the committed data is still what this torch does.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conformance.answers import Answers
from conformance.corpus import PROGRAMS

TESTS = Path(__file__).resolve().parents[1]
#: The fresh process: the live capture's answers, as JSON on its last line.
_LIVE = """
import json, sys
sys.path[:0] = sys.argv[1:3]
from conformance.live import live_answers
print(json.dumps(live_answers(sys.argv[3])))
"""


def record(name: str, log: Path) -> Answers:
    """Run ``name`` live in a fresh process; its answers, its log written to ``log`` (gz)."""
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, TORCH_TRACE=scratch, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
        done = subprocess.run(
            [sys.executable, "-c", _LIVE, str(TESTS), str(PROGRAMS), name],
            check=True, env=env, timeout=900, capture_output=True, text=True,
        )  # fmt: skip
        (written,) = Path(scratch).glob("*.log")
        with written.open("rb") as source, gzip.open(log, "wb", 9) as out:
            shutil.copyfileobj(source, out)
    answers: Answers = json.loads(done.stdout.strip().splitlines()[-1])
    return answers

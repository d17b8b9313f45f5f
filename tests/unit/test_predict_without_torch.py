"""A session read from a log predicts without importing torch (its import costs seconds)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LOG = Path(__file__).resolve().parents[1] / "data" / "traces" / "simple.log"
PREDICT = f"""
import sys
import symdebug
session = symdebug.load_trace({str(LOG)!r})
prediction = session.predict(frame="forward", x=(1, 320, 128, 128))
print(prediction.entry, "torch" in sys.modules)
"""


def test_a_log_s_session_predicts_without_torch() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PREDICT], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0/0", "False"]

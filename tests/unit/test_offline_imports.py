"""Reading logs needs no torch (issue 13, point 1): loading a log, every offline view and the
CLI's offline commands run in a fresh interpreter that never imports torch, nor anything
heavy until a question needs it (``why`` walks a networkx graph)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
HEAVY = ("torch", "sympy", "numpy", "networkx", "IPython")

OFFLINE = f"""
import sys
import symdebug
from symdebug.cli import main

session = symdebug.load_trace({str(TRACES / "simple.log")!r})
str(session)
session.to_json()
session.to_html(sys.argv[1] + "/report.html")
ranks = symdebug.load_trace({str(TRACES / "multi_rank_logs")!r})
str(ranks)
main(["summary", {str(TRACES / "comp_metrics.log")!r}])
main(["report", {str(TRACES / "links.log")!r}, "-o", sys.argv[1] + "/links.html"])
print("HEAVY", sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r}))
str(session.why(session.explanations[0].source))
print("TORCH", "torch" in sys.modules)
"""


@pytest.mark.slow
def test_reading_logs_imports_no_torch(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert lines[-2:] == ["HEAVY []", "TORCH False"], done.stdout[-2000:] + done.stderr[-2000:]
    assert (tmp_path / "report.html").stat().st_size > 0
    assert (tmp_path / "links.html").stat().st_size > 0


def test_live_capture_is_still_one_attribute_away() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import symdebug; print(symdebug.capture.__qualname__)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == "capture"

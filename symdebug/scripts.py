"""Fix plans for scripts: each candidate replayed in a fresh process with ``TORCH_TRACE`` on.

The child (:mod:`symdebug.live.script`) applies the settings and runs the script; this side
reads the trace it wrote, so compiles are counted from the same events as anywhere else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symdebug.live.fix_plan import FixPlan, candidates, search_plan
from symdebug.live.replay import Replay, compile_errors, compiles_per_frame
from symdebug.loading import load_trace
from symdebug.model.types import Facts

#: Environment of every child: the compile caches off (a cache hit replays guards without
#: provenance and hides compiles).
CHILD_ENV = {"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
CHILD = "symdebug.live.script"
TIMEOUT_S = 1800


def _facts(trace_dir: Path) -> Facts:
    logs = [p for p in trace_dir.glob("*.log") if p.stat().st_size]
    if not logs:
        return Facts()
    loaded = load_trace(trace_dir)
    return loaded.facts if hasattr(loaded, "facts") else Facts()


def _child_error(done: subprocess.CompletedProcess[str]) -> list[str]:
    if done.returncode == 0:
        return []
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    return [f"exit status {done.returncode}: {lines[-1] if lines else ''}"[:300]]


def run_script(argv: Sequence[str], settings: dict[str, Any]) -> Replay:
    """Run ``python argv...`` in a fresh process under ``settings``; measure it."""
    with tempfile.TemporaryDirectory(prefix="symdebug-fix-") as folder:
        env = {**os.environ, **CHILD_ENV, "TORCH_TRACE": folder}
        command = [sys.executable, "-m", CHILD, json.dumps(settings), *argv]
        done = subprocess.run(  # noqa: S603 - the user's own script, as they asked
            command, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
        )
        facts = _facts(Path(folder))
    result = Replay(settings, facts=facts, outputs=done.stdout)
    result.compiles = compiles_per_frame(facts)
    result.errors = _child_error(done) + compile_errors(facts)
    return result


def script_plan(argv: Sequence[str], *, max_replays: int = 12, progress: bool = True) -> FixPlan:
    """The verified plan for a script: each candidate run in a fresh process.

    The outputs compared are the script's standard output, exactly.
    """

    def proposals(baseline: Replay) -> list[dict[str, Any]]:
        return candidates([baseline.facts or Facts()])

    return search_plan(
        lambda settings: run_script(argv, settings),
        proposals,
        max_replays=max_replays,
        progress=progress,
    )

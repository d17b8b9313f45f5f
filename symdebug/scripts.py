"""Fix plans for scripts: each candidate replayed in a fresh process with ``TORCH_TRACE`` on.

The child (:mod:`symdebug.live.script`) applies the settings and runs the script; this side
reads the trace it wrote, so compiles are counted from the same events as anywhere else.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from symdebug.live.candidates import plan_candidates
from symdebug.live.fix_plan import Candidate, FixPlan, NotTried, search_plan
from symdebug.live.outputs import comparable_outputs
from symdebug.live.replay import Replay, compile_errors, compiles_per_frame
from symdebug.loading import load_trace
from symdebug.model.types import Facts
from symdebug.queries.hunt import Hunt

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


def _started(command: list[str], env: dict[str, str], timeout: float) -> tuple[str, list[str]]:
    """The child's standard output and its error (a failure, a timeout), one line."""
    try:
        done = subprocess.run(  # noqa: S603 - the user's own script, as they asked
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout
        return out or "", [f"did not finish within {timeout:g} s (stopped)"]
    return done.stdout, _child_error(done)


def run_script(argv: Sequence[str], changes: Candidate, timeout: float = TIMEOUT_S) -> Replay:
    """Run ``python argv...`` in a fresh process under ``changes``; measure it."""
    with tempfile.TemporaryDirectory(prefix="symdebug-fix-") as folder:
        changes_file = Path(folder, "changes.pickle")
        changes_file.write_bytes(pickle.dumps(changes))
        trace = Path(folder, "trace")
        env = {**os.environ, **CHILD_ENV, "TORCH_TRACE": str(trace)}
        command = [sys.executable, "-m", CHILD, str(changes_file), *argv]
        stdout, errors = _started(command, env, timeout)
        facts = _facts(trace) if trace.is_dir() else Facts()
    result = Replay(changes, facts=facts, outputs=stdout, printed=stdout)
    result.compiles = compiles_per_frame(facts)
    result.errors = errors + compile_errors(facts)
    result.uncomparable = comparable_outputs(stdout)
    result.finished = not errors
    return result


def script_plan(
    argv: Sequence[str], *, max_replays: int = 12, progress: bool = True, timeout: float = TIMEOUT_S
) -> FixPlan:
    """The verified plan for a script: each candidate run in a fresh process.

    The outputs compared are the script's standard output, exactly (unless it changes
    between unchanged runs: then it is not compared, and the plan says so).
    """
    skipped: list[NotTried] = []

    def proposals(baseline: Replay) -> list[Candidate]:
        planned, not_tried = plan_candidates([baseline.facts or Facts()])
        skipped.extend(not_tried)
        return planned

    plan = search_plan(
        lambda changes: run_script(argv, changes, timeout),
        proposals,
        max_replays=max_replays,
        progress=progress,
    )
    plan.not_tried = skipped
    return plan


def script_hunt(
    argv: Sequence[str], *, max_replays: int = 25, progress: bool = True, timeout: float = TIMEOUT_S
) -> tuple[Hunt, Facts]:
    """The hunt of a script (each constant replayed in a fresh process), and its facts.

    The facts are the unchanged run's, with the hunt's rows: what a report of it shows.
    """
    from symdebug.live.hunt import run_hunt

    runs: list[Replay] = []

    def runner(changes: Candidate) -> Replay:
        runs.append(run_script(argv, changes, timeout))
        return runs[-1]

    found = run_hunt(None, runner, max_replays=max_replays, progress=progress)
    facts = (runs[0].facts if runs else None) or Facts()
    facts.hunt = found.rows
    return found, facts

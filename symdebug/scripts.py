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

from symdebug.live.hunt import run_hunt
from symdebug.live.plan_search import search_fixes
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import Replay, compile_errors, compiles_per_frame
from symdebug.live.script_process import SameInput, run_child
from symdebug.live.trials import Candidate
from symdebug.loading import load_trace
from symdebug.model.types import Facts
from symdebug.model.values import REPLAY_TIMEOUT_S
from symdebug.queries.hunt import Hunt

#: Environment of every child: the compile caches off (a cache hit replays guards without
#: provenance and hides compiles).
CHILD_ENV = {"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
#: Unless the user chose one: one string hash order for every run (a printed set or dict of
#: strings would otherwise differ between two unchanged runs).
_SAME_EACH_RUN = {"PYTHONHASHSEED": "0"}
CHILD = "symdebug.live.script"
TIMEOUT_S = REPLAY_TIMEOUT_S


def _facts(trace_dir: Path) -> Facts:
    logs = [p for p in trace_dir.glob("*.log") if p.stat().st_size]
    if not logs:
        return Facts()
    # The log of a run made here, a moment ago: its source files are the program's own.
    loaded = load_trace(trace_dir, sources=True)
    return loaded.facts if hasattr(loaded, "facts") else Facts()


def child_command() -> list[str]:
    """``python -m symdebug.live.script`` with nothing of the current folder on ``sys.path``.

    ``-m`` puts the current folder first, so a ``json.py`` there would run; ``-P`` does not
    (the child then puts the script's folder first, as ``python script.py`` does).
    """
    if sys.version_info >= (3, 11):
        return [sys.executable, "-P", "-m", CHILD]
    run = f"import runpy; runpy.run_module({CHILD!r}, run_name='__main__')"
    return [sys.executable, "-c", f"import sys; sys.path[:1] == [''] and sys.path.pop(0); {run}"]


def run_script(
    argv: Sequence[str],
    changes: Candidate,
    timeout: float = TIMEOUT_S,
    same_input: SameInput | None = None,
) -> Replay:
    """Run ``python argv...`` in a fresh process under ``changes``; measure it.

    Its standard output is compared as a digest (any size costs no memory); ``printed``
    keeps its beginning.  ``same_input``: the stdin every run reads (default: none).
    """
    stdin = same_input.for_run() if same_input is not None else subprocess.DEVNULL
    with tempfile.TemporaryDirectory(prefix="symdebug-fix-") as folder:
        changes_file = Path(folder, "changes.pickle")
        changes_file.write_bytes(pickle.dumps(changes))
        trace = Path(folder, "trace")
        env = {**_SAME_EACH_RUN, **os.environ, **CHILD_ENV, "TORCH_TRACE": str(trace)}
        command = [*child_command(), str(changes_file), *argv]
        ran = run_child(command, env, timeout=timeout, stdin=stdin, folder=Path(folder))
        facts = _facts(trace) if trace.is_dir() else Facts()
    result = Replay(changes, facts=facts, outputs=ran.output, printed=ran.printed)
    result.compiles = compiles_per_frame(facts)
    result.errors = ran.errors + compile_errors(facts)
    result.finished = not ran.errors
    return result


def script_plan(
    argv: Sequence[str],
    *,
    max_replays: int = 12,
    progress: bool = True,
    timeout: float = TIMEOUT_S,
    same_input: SameInput | None = None,
) -> FixPlan:
    """The verified plan for a script: each candidate run in a fresh process.

    The outputs compared are the script's standard output, exactly (unless it changes
    between unchanged runs: then it is not compared, and the plan says so).  Each run
    stops after ``timeout`` seconds (its verdict says so) and reads ``same_input``.
    """

    def runner(changes: Candidate) -> Replay:
        return run_script(argv, changes, timeout, same_input)

    plan, _ = search_fixes(runner, [], max_replays=max_replays, progress=progress)
    return plan


def script_hunt(
    argv: Sequence[str], *, max_replays: int = 25, progress: bool = True, timeout: float = TIMEOUT_S
) -> tuple[Hunt, Facts]:
    """The hunt of a script (each constant replayed in a fresh process), and its facts.

    The facts are the unchanged run's, with the hunt's rows: what a report of it shows.
    """
    runs: list[Replay] = []

    def runner(changes: Candidate) -> Replay:
        runs.append(run_script(argv, changes, timeout))
        return runs[-1]

    found = run_hunt(None, runner, max_replays=max_replays, progress=progress)
    facts = (runs[0].facts if runs else None) or Facts()
    facts.hunt = found.rows
    return found, facts

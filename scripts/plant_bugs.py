"""Plant known bugs in a copy of the package and check that the tests of that area catch them.

Each bug of :data:`BUGS` is a one-place change to ``symdebug/`` (a mislabeled guard status,
a wrong cause, a dropped recompile, a wrong user line, ...) and the tests that back the
README's claim about it.  For each bug the package and the tests are copied to a temporary
folder, the change is made there (the working tree is never touched), and the tests are run
against the copy: a bug is *caught* when they fail.  The script exits non-zero when a bug is
missed, or when a change no longer applies (the code it names moved: update the entry).

    python scripts/plant_bugs.py                 # every bug
    python scripts/plant_bugs.py --only status   # the bugs whose name contains "status"
    python scripts/plant_bugs.py --patch symdebug/x.py 'old' 'new' \
        --tests tests/integration/test_x.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("symdebug", "tests", "notebooks", "pyproject.toml")


@dataclass(frozen=True)
class Bug:
    """One planted bug: ``old`` becomes ``new`` in ``path``; ``tests`` must then fail."""

    name: str
    claim: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


_STATUS = "tests/integration/test_guard_status_truth.py"
_PREDICT = "tests/integration/test_predict.py"
_STATUS_CLAIM = "a guard's status (installed, suppressed, runtime-assert, ignored)"

#: The bugs, one or more per claim of the README's comparison table.
BUGS: tuple[Bug, ...] = (
    Bug(
        "status: an ignored guard reported as installed",
        _STATUS_CLAIM,
        "symdebug/builders/guards_builder.py",
        'if live.get("frozen"):\n        return "ignored"',
        'if live.get("frozen"):\n        return "installed"',
        (f"{_STATUS}::test_ignored_guards_are_those_the_frozen_shape_env_ignored",),
    ),
    Bug(
        "status: a suppressed guard reported as installed",
        _STATUS_CLAIM,
        "symdebug/builders/guards_builder.py",
        "        if expr in installed:",
        '        if expr in installed or guard.status == "suppressed":',
        (f"{_STATUS}::test_suppressed_guards_are_those_torch_evaluated_under_suppression",),
    ),
    Bug(
        "status: a runtime assert reported as installed",
        _STATUS_CLAIM,
        "symdebug/builders/guards_builder.py",
        "        if expr in installed:",
        '        if expr in installed or guard.status == "runtime-assert":',
        (f"{_STATUS}::test_runtime_asserts_are_the_deferred_runtime_asserts",),
    ),
    Bug(
        "recompiles: the first recompile of each frame dropped",
        "a recompile and its reason, from the trace's own records",
        "symdebug/processors/recompiles.py",
        "    if not compile_.recompile_reasons:\n        return None",
        '    if not compile_.recompile_reasons or compile_.compile_id.endswith("/1"):\n'
        "        return None",
        ("tests/unit/test_shared_traces.py",),
    ),
    Bug(
        "fix plan: compiles after the fix read from the unchanged run",
        "a fix plan's compiles before and after, as Dynamo counts them",
        "symdebug/live/plan_search.py",
        "    after = best.replay if best is not None else baseline",
        "    after = best.replay if best is not None and len(best.changes) > 1 else baseline",
        (
            "tests/integration/test_fix_plan.py"
            "::test_a_fix_is_judged_by_its_own_replay_against_the_unchanged_run",
        ),
    ),
    Bug(
        "cli: --dask ignored",
        "logs of several ranks read on a Dask cluster",
        "symdebug/cli.py",
        '"dask": args.dask,',
        '"dask": None,',
        ("tests/integration/test_cli_dask.py",),
    ),
    Bug(
        "predict: no compiled check program",
        "compiled check programs answer as the interpreter does",
        "symdebug/predict/predict.py",
        "            plans = [entry_plan(model, given) for model in self.models]",
        "            plans = [None for model in self.models]",
        ("tests/unit/test_check_program.py::test_real_entries_at_many_sizes",),
    ),
    Bug(
        "predict: a size outside a range guard predicted as served",
        "will size N recompile? (every probe of the corpus, as torch answered)",
        "symdebug/predict/predict.py",
        "            if verdict.failure is not None:",
        '            if verdict.failure is not None and verdict.failure.kind != "range":',
        (f"{_PREDICT}::test_prediction_matches_torch_live[inductor]",),
    ),
    Bug(
        "predict: a failed compile taken as leaving no entry to compile again",
        "failed compiles modelled in predictions",
        "symdebug/predict/frame_state.py",
        "    elif suppress:",
        "    elif not suppress:",
        (f"{_PREDICT}::test_prediction_matches_torch_live[mark_dynamic]",),
    ),
    Bug(
        "recompiles: a dtype change named a requires_grad change",
        "which check made a recompile: its cause",
        "symdebug/processors/recompiles.py",
        '    "dtype": "dtype",',
        '    "dtype": "requires_grad",',
        (f"{_PREDICT}::test_prediction_matches_torch_live[tensor_state]",),
    ),
    Bug(
        "log: user lines of frames shared by too short a key",
        "same answers from a log as live (user lines)",
        "symdebug/events.py",
        "tuple(map(id, frames))",
        "tuple(map(id, frames[:-1]))",
        ("tests/integration/test_live_vs_trace.py",),
    ),
    Bug(
        "log: recompile reasons dropped",
        "same answers from a log as live (recompiles)",
        "symdebug/pipeline.py",
        '        "artifact:recompile_reasons",\n',
        "",
        ("tests/integration/test_live_vs_trace.py",),
    ),
    Bug(
        "recompiles: a size of 0 or 1 named duck sizing",
        "every recompile of a Hugging Face model explained as torch's reason says",
        "symdebug/processors/recompiles.py",
        'recompile.cause = "zero_one"  # a size of 0 or 1',
        'recompile.cause = "duck_sizing"  # a size of 0 or 1',
        ("tests/integration/test_transformers.py::test_every_recompile_is_explained",),
    ),
    Bug(
        "status: an installed guard reported as ignored",
        _STATUS_CLAIM,
        "symdebug/_torch/shape_env.py",
        "        text = str(guard.expr)",
        '        text = str(guard.expr).replace(" ", "")',
        (f"{_STATUS}::test_installed_guards_are_the_shape_env_guards",),
    ),
    Bug(
        "replays: the parent's garbage collected in the child",
        "a replay in a forked child never hangs on what the parent left (a DDP in a cycle)",
        "symdebug/live/isolated.py",
        "    gc.freeze()\n",
        "",
        ("tests/integration/test_replays.py::test_the_parents_garbage_is_left_to_the_parent",),
    ),
)


def copy_tree(into: Path) -> None:
    """The package, the tests and the pytest settings, copied (no caches)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=ignore)
        else:
            shutil.copy2(source, into / name)


def plant_text(text: str, bug: Bug) -> str:
    """The file's text with the bug planted; raise if its text is not found exactly once."""
    found = text.count(bug.old)
    if found != 1:
        raise SystemExit(f"{bug.name}: {bug.old!r} found {found} times in {bug.path}, not once")
    return text.replace(bug.old, bug.new)


def plant(into: Path, bug: Bug) -> None:
    """Make the bug's change in the copy."""
    target = into / bug.path
    target.write_text(plant_text(target.read_text(), bug))


def run_tests(into: Path, tests: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """pytest on the copy; the copy is first on the path, for subprocesses too."""
    env = {**os.environ, "PYTHONPATH": str(into), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    return subprocess.run(command, cwd=into, env=env, capture_output=True, text=True, check=False)


def check(bug: Bug) -> bool:
    """Whether the bug's tests fail on a copy with the bug planted."""
    with tempfile.TemporaryDirectory(prefix="symdebug-planted-") as folder:
        into = Path(folder)
        copy_tree(into)
        plant(into, bug)
        started = time.perf_counter()
        result = run_tests(into, bug.tests)
    caught = result.returncode not in (0, 5)  # 5: no test collected, which catches nothing
    verdict = "caught" if caught else "MISSED"
    print(f"{verdict:7} {bug.name}  ({bug.claim}; {time.perf_counter() - started:.0f} s)")
    if not caught:
        print(result.stdout[-2000:])
    return caught


def main(argv: list[str] | None = None) -> int:
    """Plant the chosen bugs, one at a time; non-zero when any is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="bugs whose name contains this")
    parser.add_argument("--patch", nargs=3, metavar=("PATH", "OLD", "NEW"))
    parser.add_argument("--tests", nargs="+", default=[])
    parser.add_argument("--dry", action="store_true", help="only check each change applies")
    options = parser.parse_args(argv)
    if options.patch:
        path, old, new = options.patch
        bugs: tuple[Bug, ...] = (Bug("ad hoc", "ad hoc", path, old, new, tuple(options.tests)),)
    else:
        bugs = tuple(bug for bug in BUGS if options.only in bug.name)
    if not bugs:
        raise SystemExit("no bug chosen")
    if options.dry:
        for bug in bugs:
            plant_text((ROOT / bug.path).read_text(), bug)
        print(f"{len(bugs)} changes apply")
        return 0
    missed = [bug.name for bug in bugs if not check(bug)]
    print(f"{len(bugs) - len(missed)} of {len(bugs)} planted bugs caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

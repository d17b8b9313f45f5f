"""The commands that compare runs and sweep suites: ``diff`` and ``suite``.

Their pages need renderers a log's summary does not, so the command line imports this module
only when one of them runs (:data:`symdebug.cli.COMMAND_MODULES`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from symdebug.model.words import counted
from symdebug.runs.diff import diff
from symdebug.runs.suite import HF_SUITE_FILE, SuiteError, SuiteStoppedError, run_suite
from symdebug.runs.suite_stop import EXIT_STATUS


def diff_runs(args: argparse.Namespace) -> int:
    """Compare two runs; status 1 when the second regressed (more compiles, new breaks)."""
    result = diff(args.before, args.after)
    print(result.to_json() if args.json else result)
    if args.output:
        print(f"wrote {result.to_html(args.output)}", file=sys.stderr if args.json else sys.stdout)
    return 1 if result.regressed else 0


def suite(args: argparse.Namespace) -> int:
    """Run a suite of workloads; status 1 when a workload failed (its row says why)."""
    file, env = _suite_file(args)
    try:
        facts = run_suite(
            file, args.output, jobs=args.jobs, dask=args.dask, dask_timeout=args.dask_timeout,
            resume=args.resume, timeout=args.timeout, env=env,
        )  # fmt: skip
    except SuiteError as error:
        print(f"symdebug: {error}", file=sys.stderr)
        return 2
    except SuiteStoppedError as stopped:
        finished = sum(1 for row in stopped.facts.workloads if not row.error)
        said = f"{finished} of {counted(len(stopped.facts.workloads), 'workload')} finished"
        index = Path(args.output) / "index.html"
        print(
            f"symdebug: suite stopped by {stopped.signal}: wrote {index} ({said})", file=sys.stderr
        )
        return EXIT_STATUS.get(stopped.signal, 130)
    failed = [row for row in facts.workloads if row.error]
    for row in failed:
        print(f"{row.name}: {row.error}", file=sys.stderr)
    workloads = counted(len(facts.workloads), "workload")
    print(f"wrote {Path(args.output) / 'index.html'} ({workloads}, {len(failed)} failed)")
    return 1 if failed else 0


def _suite_file(args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """The workload file (``--hf``: the built-in one) and the workloads' environment."""
    if args.hf == (args.file is not None):
        raise ValueError("give a workload FILE or --hf (the built-in Hugging Face suite)")
    if not args.hf:
        return args.file, {}
    backend = args.backend or QUICK_BACKEND.get(args.grid, "inductor")
    if args.backend is None and args.grid in QUICK_BACKEND:
        print(
            f"--grid {args.grid}: compiling with {backend} for a quick look (Inductor takes "
            "minutes per model; --backend inductor to measure it)",
            file=sys.stderr,
        )
    env = {"SYMDEBUG_SUITE_BACKEND": backend, "SYMDEBUG_SUITE_GRID": args.grid}
    return HF_SUITE_FILE, env


#: The backend a grid meant for a quick look compiles with, unless --backend says otherwise.
QUICK_BACKEND = {"small": "aot_eager"}


#: Each command's handler, by the command's name.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"diff": diff_runs, "suite": suite}

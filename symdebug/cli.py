"""The ``symdebug`` command line.

Summary, why and report of ``TORCH_TRACE`` logs; a script run under capture; a verified
fix plan for a script (each candidate replayed in a fresh process); the demo.

This module parses every command and answers those that read one log.  The others are
answered by a module of their own, imported when the command runs
(:data:`COMMAND_MODULES`): the commands that run code under capture import torch, and a
log's summary should not wait for it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from symdebug.api import Session
from symdebug.cli_options import add_report_options
from symdebug.cli_script_args import mark_script_command, script_arguments
from symdebug.dask_client import DASK_CONNECT_SECONDS
from symdebug.loading import MultiRankSession, open_run
from symdebug.model.values import REPLAY_TIMEOUT_S
from symdebug.queries.why import NotAnInputError, WhichDimError

#: Where ``symdebug run`` writes: a run never overwrites a log's report (``symdebug report``'s).
RUN_FILE = "symdebug-run.html"
#: The module that answers each command not answered here, imported when the command runs:
#: :mod:`symdebug.cli_live` runs code under capture (torch), :mod:`symdebug.cli_runs`
#: writes the pages of a diff and a suite.
COMMAND_MODULES = {
    "run": "symdebug.cli_live",
    "fix": "symdebug.cli_live",
    "hunt": "symdebug.cli_live",
    "demo": "symdebug.cli_live",
    "diff": "symdebug.cli_runs",
    "suite": "symdebug.cli_runs",
}
Command = Callable[[argparse.Namespace], int]
#: What ``symdebug --help`` says first: for the user, not this module's docstring.
DESCRIPTION = (
    "Why torch.compile specialized a shape, and what to do about it. Read a TORCH_TRACE log "
    "(summary, why, report), run a script under capture (run), verify fixes and hunt "
    "avoidable constants by replaying it (fix, hunt), compare runs (diff) or sweep a suite "
    "of workloads (suite). 'symdebug COMMAND --help' says more of each."
)


def _loaded(args: argparse.Namespace) -> Session | MultiRankSession:
    if not args.trace.strip():
        raise ValueError("no TORCH_TRACE path given (an empty string is not the current folder)")
    options = {"jobs": args.jobs, "dask": args.dask, "dask_timeout": args.dask_timeout}
    loaded = open_run(args.trace, sources=args.sources, **options)
    ranks = _real_ranks(loaded) if isinstance(loaded, MultiRankSession) else []
    if args.rank is not None and args.rank not in ranks:
        known = ", ".join(map(str, ranks)) or "none (a single log)"
        raise ValueError(f"no rank {args.rank} in {args.trace}; ranks: {known}")
    return loaded


def _real_ranks(loaded: MultiRankSession) -> list[int]:
    """The ranks the logs say (a second log of rank 0 is one more log of rank 0)."""
    return sorted({s.facts.rank for s in loaded.ranks.values() if s.facts.rank is not None})


def _sessions(
    loaded: Session | MultiRankSession, rank: int | None
) -> list[tuple[str | None, Session]]:
    """Each session asked for, with its name (``rank 2``, ``rank 0 (second log)``)."""
    if isinstance(loaded, MultiRankSession):
        ranks = sorted(loaded.ranks.items())
        asked = [(key, s) for key, s in ranks if rank is None or s.facts.rank == rank]
        return [(loaded.label(key), s) for key, s in asked]
    return [(None, loaded)]


def _summary(args: argparse.Namespace) -> int:
    loaded = _loaded(args)
    for name, session in _sessions(loaded, args.rank):
        if name is not None:
            print(f"=== {name}")
        print(session)
    if isinstance(loaded, MultiRankSession) and args.rank is None:
        print(f"=== ranks compared\n{loaded.divergence()}")
    if isinstance(loaded, MultiRankSession):  # logs not read, second logs of a rank
        print("".join(f"note: {note}\n" for note in loaded.notes), end="")
    return 0


def _why(args: argparse.Namespace) -> int:
    status = 0
    for name, session in _sessions(_loaded(args), args.rank):
        prefix = f"{name}: " if name is not None else ""
        try:
            print(prefix + str(session.why(args.source, args.dim)))
        except KeyError as error:
            print(f"{prefix}{_cli_hint(error, args.trace)}", file=sys.stderr)
            status = 1
    return status


def _cli_hint(error: KeyError, trace: str) -> str:
    """The error of ``why``, any question it suggests asked the command line's way."""
    log = shlex.quote(trace)
    if isinstance(error, WhichDimError):
        name = shlex.quote(error.name)
        return error.asking(lambda dim: f"symdebug why {log} {name} {dim}")
    if isinstance(error, NotAnInputError):
        return error.asking(f"the output of symdebug summary {log}")
    return str(error.args[0])


def _report(args: argparse.Namespace) -> int:
    loaded = _loaded(args)
    sessions = loaded.ranks if isinstance(loaded, MultiRankSession) else {None: loaded}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)  # as make demo's out/
    written: dict[int, str] = {}
    for key, session in sessions.items():
        if args.rank is not None and session.facts.rank != args.rank:
            continue
        out = args.output
        if isinstance(loaded, MultiRankSession) and key is not None and len(sessions) > 1:
            out = _ranked(args.output, _file_label(loaded.label(key)))
        print(f"wrote {session.to_html(out, redact=args.redact)}")
        if key is not None:
            written[key] = Path(out).name
    if isinstance(loaded, MultiRankSession) and args.rank is None:
        page = loaded.to_html(_ranked(args.output, "ranks"), written, redact=args.redact)
        print(f"wrote {page} (ranks compared)")
    return 0


def _file_label(label: str) -> str:
    """A rank's name in its report's file name: ``rank2``, ``rank0-second-log``."""
    return re.sub(r"^rank-", "rank", re.sub(r"\W+", "-", label).strip("-"))


def add_hunt_command(commands: Any) -> argparse.ArgumentParser:
    """``symdebug hunt [-o hunt.html] [--max-replays N] [--timeout S] script.py [ARGS]``."""
    hunt: argparse.ArgumentParser = commands.add_parser(
        "hunt",
        help="for each input a compile held constant: was it needed? (replays the script)",
        description="Run the script once unchanged, then once per constant with the change "
        "that keeps it symbolic (a mark, a setting), each in a fresh process.  A constant "
        "that stays one is needed (its cause and line are printed); one that stays symbolic "
        "with the same output is avoidable (the change, and the compiles it saves).",
    )
    hunt.add_argument("script", help="the script to run")
    hunt.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    hunt.add_argument("-o", "--output", default=None, help="also write a report with the hunt")
    hunt.add_argument("--redact", action="store_true", help="leave out source lines and paths")
    hunt.add_argument("--max-replays", type=int, default=25, help="at most this many runs")
    add_timeout_option(hunt)
    return hunt


def _ranked(path: str, label: str) -> str:
    """``report.rank0.html`` beside ``report.html`` (``rep.rank0.html`` beside ``./rep``)."""
    given = Path(path)
    suffix = given.suffix or ".html"
    return str(given.with_name(f"{given.name.removesuffix(given.suffix)}.{label}{suffix}"))


def add_fix_options(parser: argparse.ArgumentParser) -> None:
    """How many replays a fix plan may take, and how long each may run."""
    parser.add_argument(
        "--max-replays", type=int, default=12, help="at most this many runs of the script"
    )
    add_timeout_option(parser)


def add_timeout_option(parser: argparse.ArgumentParser) -> None:
    """``--timeout``: one default for every run of a script (``REPLAY_TIMEOUT_S``)."""
    said = f"{REPLAY_TIMEOUT_S:g}"
    parser.add_argument(
        "--timeout", type=float, default=REPLAY_TIMEOUT_S, metavar="SECONDS",
        help=f"seconds one run of the script may take; past it, it is stopped ({said})",
    )  # fmt: skip


def add_rank_options(parser: argparse.ArgumentParser) -> None:
    """Which rank of a directory of logs, and who reads them (local processes or Dask)."""
    parser.add_argument("--rank", type=int, default=None, help="only this rank")
    parser.add_argument(
        "--jobs", type=int, default=None, help="processes reading the logs (default: cores)"
    )
    parser.add_argument(
        "--dask", default=None, help="a Dask scheduler's address: its workers read the logs"
    )
    add_dask_timeout(parser)
    parser.add_argument(
        "--sources", action="store_true",
        help="also read the source files the log names from this disk (parameter names, "
        "the lines that marked dims); by default the report depends on the log alone",
    )  # fmt: skip


def add_dask_timeout(parser: argparse.ArgumentParser) -> None:
    """How long ``--dask`` waits for the scheduler to answer."""
    parser.add_argument(
        "--dask-timeout", type=float, default=DASK_CONNECT_SECONDS, metavar="SECONDS",
        help=f"seconds to wait for the --dask scheduler to answer ({DASK_CONNECT_SECONDS:g})",
    )  # fmt: skip


def add_diff_command(commands: Any) -> None:
    """``symdebug diff BEFORE AFTER [--json] [-o diff.html]``."""
    diff = commands.add_parser(
        "diff",
        help="what changed between two runs (exit status 1 when the second regressed)",
        description="Compare two runs frame by frame (matched by qualified name and file): "
        "compiles, recompiles, specializations and graph breaks added and removed.  "
        "Exit status: 1 when a frame compiles more or gained a specialization or a graph "
        "break, 0 otherwise, 2 on a usage error.",
    )
    for side in ("before", "after"):
        diff.add_argument(side, help="a TORCH_TRACE log or folder, a saved .symdebug.json")
    diff.add_argument("--json", action="store_true", help="print the diff document as JSON")
    diff.add_argument("-o", "--output", default=None, help="also write the diff as HTML here")


def add_suite_command(commands: Any) -> None:
    """``symdebug suite FILE [-o DIR] [--jobs N | --dask ADDRESS] [--resume]``, or ``--hf``."""
    suite = commands.add_parser(
        "suite",
        help="run every workload of a file under capture; write a matrix of causes",
        description="FILE defines WORKLOADS = {name: zero-argument callable, or script path}. "
        "Each workload runs in a fresh process under capture; DIR gets suite.json, one "
        "report per workload and index.html.  Exit status: 1 when a workload failed, 2 when "
        "the suite cannot start.",
    )
    suite.add_argument("file", nargs="?", default=None, help="the workload file")
    suite.add_argument("--hf", action="store_true", help="the built-in Hugging Face suite")
    suite.add_argument("-o", "--output", default="symdebug-suite", help="the output folder")
    where = suite.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, help="workloads at once (processes)")
    where.add_argument("--dask", default=None, help="a Dask scheduler's address")
    add_dask_timeout(suite)
    suite.add_argument("--resume", action="store_true", help="skip workloads already done")
    suite.add_argument(
        "--timeout", type=float, default=900.0, help="seconds one workload may run (900)"
    )
    suite.add_argument(
        "--backend", default=None,
        help="--hf: the torch.compile backend (inductor; with --grid small, aot_eager: quick)",
    )  # fmt: skip
    suite.add_argument(
        "--grid", choices=("full", "small"), default="full",
        help="--hf: the sizes swept (small: fewer sizes, for a quick look)",
    )  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (shared with the notebook magics)."""
    parser = argparse.ArgumentParser(prog="symdebug", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summary", help="per-frame summary of a TORCH_TRACE log")
    summary.add_argument("trace", help="a TORCH_TRACE log file or directory")
    add_rank_options(summary)
    summary.set_defaults(run=_summary)
    why = commands.add_parser("why", help="why a source is dynamic or constant")
    why.add_argument("trace", help="a TORCH_TRACE log file or directory")
    why.add_argument("source", help="\"L['x'].size()[0]\", or an argument name with DIM")
    why.add_argument("dim", nargs="?", type=int, default=None, help="dimension of the argument")
    add_rank_options(why)
    why.set_defaults(run=_why)
    report = commands.add_parser("report", help="write a self-contained HTML report of a log")
    report.add_argument("trace", help="a TORCH_TRACE log file or directory")
    add_report_options(report)
    add_rank_options(report)
    report.set_defaults(run=_report)
    run = commands.add_parser("run", help="run a Python script under capture, write a report")
    run.add_argument("script", help="the script to run")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    add_report_options(run, default=RUN_FILE)
    run.add_argument("--fix", action="store_true", help="then find and verify a fix plan")
    add_fix_options(run)
    fix = commands.add_parser(
        "fix", help="replay a script under each suggested fix, print the verified plan"
    )
    fix.add_argument("script", help="the script to run (each replay in a fresh process)")
    fix.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    add_fix_options(fix)
    hunt = add_hunt_command(commands)
    for scripted in (run, fix, hunt):
        mark_script_command(scripted)
    add_diff_command(commands)
    add_suite_command(commands)
    demo = commands.add_parser("demo", help="run the bundled example under capture")
    demo.add_argument("--save", default=None, help="also save the session JSON here")
    demo.add_argument("--report", default=None, help="also write the HTML report here")
    return parser


def _command(args: argparse.Namespace) -> Command:
    """The handler of the command asked: this module's, or its module's (imported now)."""
    if args.command not in COMMAND_MODULES:
        answer: Command = args.run
        return answer
    # lazy: torch, or the pages' renderers, only for the commands that need them
    module = importlib.import_module(COMMAND_MODULES[args.command])
    handler: Command = module.COMMANDS[args.command]
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(given)
    try:
        if hasattr(args, "own_options"):
            args.args = script_arguments(args, given)
        return int(_command(args)(args))
    except BrokenPipeError:  # `symdebug summary log | head`: the reader left, not an error
        _quiet_stdout()
        return 0
    except (OSError, ValueError, KeyError) as error:  # a path, a permission, a rank
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"symdebug: {message}", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit raises nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())

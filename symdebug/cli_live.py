"""The commands that run the user's code under capture: ``run``, ``fix``, ``hunt``, ``demo``.

They import torch (through :mod:`symdebug.live`), so the command line imports this module
only when one of them runs (:data:`symdebug.cli.COMMAND_MODULES`): the commands that read
logs never load torch.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from symdebug.api import Session
from symdebug.examples.demo import run_demo
from symdebug.live import capture
from symdebug.live.as_python import ScriptRun, run_as_python
from symdebug.live.fix_plan_text import IN_A_SCRIPT, plan_text
from symdebug.live.script_process import SameInput
from symdebug.scripts import script_hunt, script_plan


def run_script(args: argparse.Namespace) -> int:
    """Run a script under capture, as ``python script.py ARGS`` would, then report."""
    _check_script(args.script)  # before the capture: an error here writes no report
    _check_output(args.output)
    written_to = Path.cwd() / args.output  # the script may change folder
    same_input = SameInput()  # before the script reads stdin: each replay reads it again
    active = capture()
    session = active.__enter__()

    def report(_status: int = 0) -> None:  # also when the script calls os._exit
        active.__exit__(None, None, None)
        print(session)
        session.to_html(written_to, redact=args.redact)
        print(f"wrote {args.output}", flush=True)

    ran = run_as_python(args.script, args.args, before_hard_exit=report)
    if ran.forked:  # a child the script forked came back here: the parent reports
        return ran.status
    _said_at_the_end(ran)
    report()
    if args.fix:
        fix_script(args, same_input)
    return ran.status


def _said_at_the_end(ran: ScriptRun) -> None:
    """What python would print as the script ends (its error), and what a report may miss."""
    if ran.said:
        print(ran.said.rstrip("\n"), file=sys.stderr)
    for missing in ran.missing:
        print(f"symdebug: the report may miss compiles: {missing}", file=sys.stderr)


def _check_script(script: str) -> None:
    """Raise where ``python script`` could not start: no such file, a folder without main."""
    path = Path(script)
    if path.is_dir() and not (path / "__main__.py").is_file():
        raise ValueError(f"no script {script!r}: a folder without __main__.py")
    if not path.exists():
        raise ValueError(f"no script {script!r} (no such file)")


def _check_output(output: str) -> None:
    """Raise where a report could not be written to ``output`` (a folder)."""
    if Path(output).is_dir():
        raise ValueError(f"cannot write the report to {output!r}: it is a folder")


def fix_script(args: argparse.Namespace, same_input: SameInput | None = None) -> int:
    """Replay a script in fresh processes under each candidate fix; print the plan."""
    _check_script(args.script)
    plan = script_plan(
        [args.script, *args.args],
        max_replays=args.max_replays,
        timeout=args.timeout,
        same_input=same_input or SameInput(),
    )
    print(plan_text(plan, IN_A_SCRIPT))  # no plan object on the command line
    if plan.verified:
        print("\nto apply it (settings before the first compile, marks before each call):")
        print(plan.code())
    return 0


def hunt_script(args: argparse.Namespace) -> int:
    """Replay a script once per constant kept symbolic; print the hunt; write its report."""
    if not Path(args.script).is_file():
        print(f"symdebug hunt: no script {args.script!r}", file=sys.stderr)
        return 2
    found, facts = script_hunt(
        [args.script, *args.args], max_replays=args.max_replays, timeout=args.timeout
    )
    print(found)
    if args.output:
        facts.source = args.script  # the unchanged run's log was a temporary file, now gone
        print(f"wrote {Session(facts).to_html(args.output, redact=args.redact)}")
    return 0


def demo(args: argparse.Namespace) -> int:
    """Run the bundled example under capture."""
    run_demo(save=args.save, report=args.report)
    return 0


#: Each command's handler, by the command's name.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": run_script,
    "fix": fix_script,
    "hunt": hunt_script,
    "demo": demo,
}

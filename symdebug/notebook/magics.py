"""``%symdebug`` and ``%%symdebug``: explore the captured session, report, capture one cell.

Options are parsed by the same argparse helpers as the command line.  A cell is run as it
is (``shell.run_cell``, no text rewriting: only blank lines above it, so that its lines are
numbered as the editor numbers them) and nothing is put in the user's namespace.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand
from IPython.display import display as _display

from symdebug.api import Session
from symdebug.cli_options import add_report_options
from symdebug.hooks.cells import editor_line_numbers, numbered_as, running_cell_number
from symdebug.live import LiveCapture, LiveSession
from symdebug.live.fix_plan import fix_plan
from symdebug.notebook.cell_workload import cell_workload
from symdebug.notebook.widget import Explorer


def display(value: Any) -> None:
    """IPython's display (untyped upstream)."""
    _display(value)  # type: ignore[no-untyped-call]


def magic_parser() -> argparse.ArgumentParser:
    """Parser for ``%symdebug [report PATH | on | off | reset]``."""
    parser = argparse.ArgumentParser(
        prog="%symdebug", description="symdebug in a notebook", add_help=True
    )
    commands = parser.add_subparsers(dest="command")
    add_report_options(commands.add_parser("report", help="write the HTML report"), positional=True)
    for name, text in (
        ("fix", "%%symdebug fix: replay the cell under each suggested fix, print the plan"),
        ("on", "start capturing"),
        ("off", "stop capturing"),
        ("reset", "forget what was captured"),
    ):
        commands.add_parser(name, help=text)
    return parser


#: What ``%symdebug fix`` (the line magic) prints: the fix plan replays a cell.
FIX_IS_A_CELL_MAGIC = (
    "symdebug: fix replays a cell: put %%symdebug fix on the first line of the cell that"
    " makes the calls, and run that cell"
)


def _parse(line: str) -> argparse.Namespace | None:
    parser = magic_parser()
    try:
        return parser.parse_args(shlex.split(line))
    except SystemExit as exit_:
        if exit_.code == 0:  # -h printed the help
            return None
        raise UsageError(f"%symdebug: bad options {line!r}; see %symdebug -h") from None


@magics_class
class SymdebugMagics(Magics):
    """The magics, and the capture that ``%load_ext symdebug`` starts."""

    __doc__ = (__doc__ or "") + "\n" + magic_parser().format_help()

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.capture: LiveCapture | None = None
        self.session: LiveSession | None = None
        self._explorers: list[Any] = []
        #: The cell of the last ``%%symdebug fix``: the explorer's Verify fixes replays it.
        self.workload: Callable[[], Any] | None = None

    def start(self) -> None:
        """Capture from now on (a no-op when already capturing)."""
        if self.capture is None:
            self.capture = LiveCapture()
            self.session = self.capture.start()

    def stop(self) -> None:
        """Stop capturing; the session keeps what it saw."""
        for explorer in self._explorers:
            if self.shell is not None:
                self.shell.events.unregister("post_run_cell", explorer.refresh)
        self._explorers.clear()
        if self.capture is not None:
            self.capture.stop()
            self.capture = None

    @no_var_expand
    @line_cell_magic
    def symdebug(self, line: str, cell: str | None = None) -> None:
        """Explore (``%symdebug``), report, on/off/reset, or capture one cell (``%%symdebug``)."""
        args = _parse(line)
        if args is None:
            return
        if cell is not None and args.command == "fix":
            self._fix_plan(cell)
        elif cell is not None:
            self._capture_cell(cell)
        elif args.command == "fix":
            print(FIX_IS_A_CELL_MAGIC)
        elif args.command in ("on", "off", "reset"):
            self._switch(args.command)
        elif args.command == "report":
            self._report(args)
        elif self.session is None:
            raise UsageError("%symdebug: nothing captured yet; run %load_ext symdebug first")
        else:
            display(self._explorer(self.session))

    def _explorer(self, session: Session) -> Any:
        """The explorer widget, refreshed after every later cell (it follows the capture)."""
        namespace = self.shell.user_ns if self.shell is not None else None
        explorer = Explorer(session, workload=self.workload, namespace=namespace)
        if self.shell is not None:
            self.shell.events.register("post_run_cell", explorer.refresh)
            self._explorers.append(explorer)
        return explorer

    def _capture_cell(self, cell: str) -> None:
        if self.shell is None:
            raise UsageError("%%symdebug needs an IPython shell")
        own = LiveCapture()
        session = own.start()
        try:
            number = running_cell_number(self.shell)
            with numbered_as(self.shell, number), editor_line_numbers(self.shell, cell):
                self.shell.run_cell(cell, store_history=False)  # type: ignore[no-untyped-call]
        finally:
            own.stop()
        display(session)

    def _fix_plan(self, cell: str) -> None:
        """Replay the cell as the workload; the session's fixes get their verdicts."""
        if self.shell is None:
            raise UsageError("%%symdebug fix needs an IPython shell")
        workload = self.workload = cell_workload(self.shell, cell)
        print(fix_plan(workload, self.session))

    def _switch(self, command: str) -> None:
        if command == "off":
            self.stop()
        elif command == "on":
            self.start()
        else:
            self.stop()
            self.start()
        state = "capturing" if self.capture is not None else "not capturing"
        print(f"symdebug: {state}")

    def _report(self, args: argparse.Namespace) -> None:
        if self.session is None:
            raise UsageError("%symdebug report: nothing captured yet")
        print(f"symdebug: wrote {self.session.to_html(args.output, redact=args.redact)}")

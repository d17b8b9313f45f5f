"""Options the command line shares with the notebook magics (``%symdebug report PATH``).

A module of their own: the magics parse them as the command line does without importing
the command line (whose ``demo`` runs the bundled example, which imports ``symdebug``).
"""

from __future__ import annotations

import argparse

#: Where ``symdebug report`` writes.
REPORT_FILE = "symdebug-report.html"


def add_report_options(
    parser: argparse.ArgumentParser, *, positional: bool = False, default: str = REPORT_FILE
) -> None:
    """Where to write a report and whether to redact it (shared with ``%symdebug report``)."""
    if positional:
        parser.add_argument("output", help="the HTML file")
    else:
        parser.add_argument(
            "-o", "--output", default=default, help=f"the HTML file (default: {default})"
        )
    parser.add_argument("--redact", action="store_true", help="leave out source lines and paths")

"""A suite sweep's index page: the report's viewer drawing ``suite.json``'s document.

The same template, bundle and escaping as the session's report (:mod:`symdebug.renderers.html`);
the viewer draws the suite's matrix when its document holds ``suite_version``.  Each
workload's report is linked by its path relative to the page, so the page goes beside
``suite.json``.
"""

from __future__ import annotations

import os
from pathlib import Path

from symdebug.model.suite_types import SuiteFacts, suite_document
from symdebug.renderers.html import safe_json_bytes, write_page

TITLE = "symdebug suite"


def write_suite_html(facts: SuiteFacts, path: str | os.PathLike[str]) -> Path:
    """Write the suite's index page to ``path``.

    Parameters
    ----------
    facts
        Every workload of the suite.
    path
        Where the page goes (beside the workloads' reports, which it links relatively).

    Returns
    -------
    Path
        The page's path.
    """
    return write_page(safe_json_bytes(suite_document(facts)), path, TITLE)

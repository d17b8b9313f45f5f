"""The diff of two runs as one self-contained HTML page: the report's viewer, the diff document.

The same template, bundle and escaping as the session's report (:mod:`symdebug.renderers.html`);
the viewer draws a diff when its document holds ``diff_version``.
"""

from __future__ import annotations

import os
from pathlib import Path

from symdebug.model.diff_types import DiffFacts, diff_document
from symdebug.renderers.html import render_page, safe_json_bytes, write_page

TITLE = "symdebug diff"


def render_diff_html(facts: DiffFacts) -> str:
    """The diff's page.

    Parameters
    ----------
    facts
        The diff of two runs.

    Returns
    -------
    str
        The self-contained page (no network access; every text of the diff shown as text).
    """
    return render_page(safe_json_bytes(diff_document(facts)), TITLE)


def write_diff_html(facts: DiffFacts, path: str | os.PathLike[str]) -> Path:
    """Write the diff's page to ``path``.

    Parameters
    ----------
    facts
        The diff of two runs.
    path
        Where the page goes.

    Returns
    -------
    Path
        The page's path.
    """
    return write_page(safe_json_bytes(diff_document(facts)), path, TITLE)

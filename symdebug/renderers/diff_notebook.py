"""The rich display of a diff of two runs in notebooks: one MIME bundle with fallbacks."""

from __future__ import annotations

from typing import Any

from symdebug.model.diff_types import DIFF_MIME_TYPE, DiffFacts, diff_document
from symdebug.renderers.diff_html import TITLE, render_diff_html
from symdebug.renderers.notebook import report_iframe

__all__ = ["DIFF_MIME_TYPE", "diff_mime_bundle"]


def diff_mime_bundle(facts: DiffFacts, text: str) -> dict[str, Any]:
    """The diff for JupyterLab's viewer, an ``<iframe srcdoc>`` page, and plain text.

    Parameters
    ----------
    facts
        The diff of two runs.
    text
        Its plain-text form (what ``print`` shows), for frontends without HTML.

    Returns
    -------
    dict
        ``{DIFF_MIME_TYPE: the diff document, "text/html": the page in an iframe,
        "text/plain": text}``.
    """
    return {
        DIFF_MIME_TYPE: diff_document(facts),
        "text/html": report_iframe(render_diff_html(facts), TITLE),
        "text/plain": text,
    }

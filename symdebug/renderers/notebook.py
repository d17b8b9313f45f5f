"""The rich display of a session in notebooks: one MIME bundle with fallbacks."""

from __future__ import annotations

import html
from typing import Any

from symdebug.model.serialize import MIME_TYPE
from symdebug.model.types import Facts
from symdebug.renderers.console import render_summary
from symdebug.renderers.document import wire_document
from symdebug.renderers.html import render_html

__all__ = ["IFRAME_HEIGHT", "MIME_TYPE", "mime_bundle", "report_iframe"]
IFRAME_HEIGHT = 640


def report_iframe(page: str, title: str = "symdebug report") -> str:
    """A viewer page in a sandboxed ``<iframe srcdoc>``, for frontends without the extension.

    Parameters
    ----------
    page
        The self-contained page (the report, the diff's).
    title
        The frame's accessible title.

    Returns
    -------
    str
        The ``<iframe>`` element, the page and the title escaped into its attributes.
    """
    srcdoc = html.escape(page, quote=True)
    return (
        f'<iframe srcdoc="{srcdoc}" style="width:100%;height:{IFRAME_HEIGHT}px;border:0" '
        f'sandbox="allow-scripts" title="{html.escape(title, quote=True)}"></iframe>'
    )


def mime_bundle(facts: Facts) -> dict[str, Any]:
    """JSON for the JupyterLab extension, an ``<iframe srcdoc>`` report, and plain text."""
    return {
        MIME_TYPE: wire_document(facts),
        "text/html": report_iframe(render_html(facts)),
        "text/plain": render_summary(facts),
    }

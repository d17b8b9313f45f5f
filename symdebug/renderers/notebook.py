"""The rich display of a session in notebooks: one MIME bundle with fallbacks."""

from __future__ import annotations

import html
from typing import Any

from symdebug.model.serialize import MIME_TYPE
from symdebug.model.types import Facts
from symdebug.renderers.console import render_summary
from symdebug.renderers.document import wire_document
from symdebug.renderers.html import render_html

__all__ = ["IFRAME_HEIGHT", "MIME_TYPE", "mime_bundle"]
IFRAME_HEIGHT = 640


def mime_bundle(facts: Facts) -> dict[str, Any]:
    """JSON for the JupyterLab extension, an ``<iframe srcdoc>`` report, and plain text."""
    report = html.escape(render_html(facts), quote=True)
    frame = (
        f'<iframe srcdoc="{report}" style="width:100%;height:{IFRAME_HEIGHT}px;border:0" '
        'sandbox="allow-scripts" title="symdebug report"></iframe>'
    )
    return {
        MIME_TYPE: wire_document(facts),
        "text/html": frame,
        "text/plain": render_summary(facts),
    }

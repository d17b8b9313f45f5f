r"""The self-contained HTML report: the viewer bundle and the session JSON, in one file.

Escaping happens once, here, at the HTML boundary: the JSON goes into a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` and the two JS line
separators written as ``\u003c``-style escapes, so no string from the session (guards hold
``<``; file paths and source lines are user text) can close the block.  The viewer reads
it with ``JSON.parse`` and inserts text with ``textContent`` only.  Nothing is loaded from
the network.  The session goes in as :func:`~symdebug.renderers.document.wire_document`
writes it, the same as in notebook outputs and the widget.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from symdebug.model.types import Facts
from symdebug.renderers.document import wire_document

BUNDLE = "_static/viewer.js"
TEMPLATE = "_static/report.html"
_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def safe_json(document: Any) -> str:
    """JSON that is inert inside HTML: markup characters written as unicode escapes.

    One ``str.replace`` per character: a tenth of ``str.translate``'s time on a large report.
    """
    text = orjson.dumps(document).decode()
    for char, escaped in _ESCAPES:
        text = text.replace(char, escaped)
    return text


def _asset(name: str) -> str:
    return resources.files("symdebug").joinpath(name).read_text(encoding="utf-8")


def render_html(facts: Facts, *, redact: bool = False) -> str:
    """The report page for a session."""
    document = wire_document(facts, redact=redact)
    # `</script` cannot appear in the bundle either: it is our own, but check, not trust.
    bundle = _asset(BUNDLE)
    if "</script" in bundle.lower():
        raise ValueError("the viewer bundle contains '</script': it cannot be inlined")
    # Split once on each marker, so that no text in the session is ever treated as one.
    before, rest = _asset(TEMPLATE).split("@@DATA@@")
    middle, after = rest.split("@@BUNDLE@@")
    return before + safe_json(document) + middle + bundle + after


def write_html(facts: Facts, path: str | os.PathLike[str], *, redact: bool = False) -> Path:
    """Write the report; return its path."""
    target = Path(path)
    target.write_text(render_html(facts, redact=redact), encoding="utf-8")
    return target

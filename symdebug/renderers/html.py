r"""The self-contained HTML report: the viewer bundle and the session JSON, in one file.

Escaping happens once, here, at the HTML boundary: the JSON goes into a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` and the two JS line
separators written as ``\u003c``-style escapes, so no string from the session (guards hold
``<``; file paths and source lines are user text) can close the block.  The viewer reads
it with ``JSON.parse`` and inserts text with ``textContent`` only.  Nothing is loaded from
the network.  The session goes in as :func:`~symdebug.renderers.document.wire_document`
writes it, the same as in notebook outputs and the widget; the diff's and the suite's pages
(``diff_html.py``, ``suite_html.py``) are the same template and bundle around their own
document (:func:`write_page`), with their own title.
"""

from __future__ import annotations

import html
import os
from importlib import resources
from pathlib import Path
from typing import Any

from symdebug.model import json_text
from symdebug.model.types import Facts
from symdebug.renderers.document import wire_document
from symdebug.renderers.wire_json import inert
from symdebug.renderers.wire_stream import report_pieces

BUNDLE = "_static/viewer.js"
TEMPLATE = "_static/report.html"
#: The template's own title, the session report's; other pages replace its tag.
REPORT_TITLE = "symdebug report"
_TITLE_TAG = f"<title>{REPORT_TITLE}</title>"


def safe_json_bytes(document: Any) -> bytes:
    """JSON that is inert inside HTML, as UTF-8: markup characters as unicode escapes.

    One ``bytes.replace`` per character, on the bytes orjson writes: no decoded copy of a
    100 MB document, and a tenth of ``str.translate``'s time.
    """
    return inert(json_text.dumps(document))


def safe_json(document: Any) -> str:
    """:func:`safe_json_bytes` as text."""
    return safe_json_bytes(document).decode()


def _asset(name: str) -> str:
    return resources.files("symdebug").joinpath(name).read_text(encoding="utf-8")


def _page_parts(title: str = REPORT_TITLE) -> tuple[str, str, str]:
    """The template around the data: before it, between it and the bundle, after the bundle."""
    # `</script` cannot appear in the bundle either: it is our own, but check, not trust.
    bundle = _asset(BUNDLE)
    if "</script" in bundle.lower():
        raise ValueError("the viewer bundle contains '</script': it cannot be inlined")
    # Split once on each marker, so that no text in the session is ever treated as one.
    before, rest = _asset(TEMPLATE).split("@@DATA@@")
    middle, after = rest.split("@@BUNDLE@@")
    return _titled(before, title), middle + bundle, after


def _titled(head: str, title: str) -> str:
    """The template's head with the page's own title (the diff's, the suite's)."""
    if title == REPORT_TITLE:
        return head
    if head.count(_TITLE_TAG) != 1:
        raise ValueError(f"the report template has no single {_TITLE_TAG!r} to replace")
    return head.replace(_TITLE_TAG, f"<title>{html.escape(title)}</title>")


def render_page(data: bytes, title: str = REPORT_TITLE) -> str:
    """A viewer page holding ``data``, a document as :func:`safe_json_bytes` wrote it.

    Parameters
    ----------
    data
        The document's inert JSON (the viewer draws a session, a diff or a suite).
    title
        The page's title.

    Returns
    -------
    str
        The self-contained page.
    """
    before, middle, after = _page_parts(title)
    return before + data.decode() + middle + after


def write_page(data: bytes, path: str | os.PathLike[str], title: str = REPORT_TITLE) -> Path:
    """Write a viewer page holding ``data`` a part at a time (no copy of the whole page).

    Parameters
    ----------
    data
        The document's inert JSON, as :func:`safe_json_bytes` wrote it.
    path
        Where the page goes.
    title
        The page's title.

    Returns
    -------
    Path
        The page's path.
    """
    target = Path(path)
    before, middle, after = _page_parts(title)
    with target.open("wb") as out:
        for part in (before.encode(), data, middle.encode(), after.encode()):
            out.write(part)
    return target


def _data(facts: Facts, redact: bool) -> bytes:
    """The page's data; the document dict is gone once its bytes are made."""
    return safe_json_bytes(wire_document(facts, redact=redact))


def render_html(facts: Facts, *, redact: bool = False) -> str:
    """The report page for a session."""
    return render_page(_data(facts, redact))


def write_html(facts: Facts, path: str | os.PathLike[str], *, redact: bool = False) -> Path:
    """Write the report, a part at a time; return its path.

    The document's JSON is written a piece at a time, its guards one at a time
    (:mod:`symdebug.renderers.wire_stream`): neither its whole bytes nor the whole document
    are ever made, for a 2 GB log or a session of a million guards.
    """
    target = Path(path)
    before, middle, after = _page_parts()
    with target.open("wb") as out:
        out.write(before.encode())
        out.writelines(report_pieces(facts, redact=redact))
        out.write((middle + after).encode())
    return target

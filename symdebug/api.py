"""The Session users hold: facts and questions (:mod:`symdebug.facts_session`) plus its views.

The views are renderers' work: ``str(session)`` is the text summary, :meth:`Session.to_html`
the self-contained report, and the notebook display one MIME bundle with fallbacks.  Each
view imports its renderer when asked: a command that writes a report loads no text summary.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from symdebug.facts_session import FactsSession


class Session(FactsSession):
    """Compiles, symbols, guards, specializations and recompiles of one run, and their views.

    Captured in this process (:func:`symdebug.capture`), it can also re-run the compiled
    function; read from a trace log or a saved file (:func:`symdebug.load_trace`,
    :func:`symdebug.load`), it answers from the facts alone.
    """

    def to_html(self, path: str | os.PathLike[str], *, redact: bool = False) -> Path:
        """Write a self-contained HTML report (no network access); return its path.

        Parameters
        ----------
        path
            Where to write the report.
        redact
            Leave out source lines and directory names, for reports shared outside a team.
        """
        from symdebug.renderers.html import write_html

        return write_html(self.facts, path, redact=redact)

    def save(self, path: str | os.PathLike[str], *, redact: bool = False) -> None:
        """Write the session to a JSON file (:func:`symdebug.load` reads it back).

        Parameters
        ----------
        path
            Where to write the JSON document.
        redact
            Leave out what :meth:`to_html` leaves out when redacting: source lines,
            directories, graph dumps, kernel code and compared strings.
        """
        if not redact:
            super().save(path)
            return
        from symdebug.renderers.wire_stream import redacted_json_pieces

        with Path(path).open("wb") as out:  # a guard at a time: a million fit
            out.writelines(redacted_json_pieces(self.facts))

    def _repr_mimebundle_(
        self,
        include: Any = None,  # noqa: ARG002 - IPython's signature; we always offer all three
        exclude: Any = None,  # noqa: ARG002
    ) -> dict[str, Any]:
        """Rich display: session JSON, the report in an iframe, and the text summary."""
        from symdebug.renderers.notebook import mime_bundle

        return mime_bundle(self.facts)

    def __str__(self) -> str:
        from symdebug.renderers.console import render_summary

        return render_summary(self.facts)

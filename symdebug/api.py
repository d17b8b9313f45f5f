"""The Session users hold: facts and questions (:mod:`symdebug.facts_session`) plus its views.

The views are renderers' work: ``str(session)`` is the text summary, :meth:`Session.to_html`
the self-contained report, and the notebook display one MIME bundle with fallbacks.  The
report's renderers (HTML, the redacted document, the notebook bundle) are imported when a
view asks for them: ``import symdebug`` and a question answered in text load none of them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from symdebug.facts_session import NOT_LIVE, FactsSession
from symdebug.renderers.console import render_summary

#: What only a session captured in this process can do (:class:`symdebug.live.LiveSession`).
LIVE_ONLY = frozenset({"rerun", "sweep", "lookup_order"})


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
        # lazy: the report's renderers load when a report is written (see the module's text)
        from symdebug.renderers.html import write_html  # noqa: PLC0415

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
        # lazy: the report's renderers load when a report is written (see the module's text)
        from symdebug.renderers.wire_stream import redacted_json_pieces  # noqa: PLC0415

        with Path(path).open("wb") as out:  # a guard at a time: a million fit
            out.writelines(redacted_json_pieces(self.facts))

    def _repr_mimebundle_(
        self,
        include: Any = None,  # noqa: ARG002 - IPython's signature; we always offer all three
        exclude: Any = None,  # noqa: ARG002
    ) -> dict[str, Any]:
        """Rich display: session JSON, the report in an iframe, and the text summary."""
        # lazy: the report's renderers load when a report is shown (see the module's text)
        from symdebug.renderers.notebook import mime_bundle  # noqa: PLC0415

        return mime_bundle(self.facts)

    def __str__(self) -> str:
        return render_summary(self.facts)

    if not TYPE_CHECKING:  # at run time only: to mypy a Session has no such attribute

        def __getattr__(self, name: str) -> NoReturn:
            """Say why a session read from a file cannot re-run (not a bare AttributeError)."""
            if name in LIVE_ONLY:
                raise AttributeError(f"Session.{name}: {NOT_LIVE}", name=name, obj=self)
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self
            )

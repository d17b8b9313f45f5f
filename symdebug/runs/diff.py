"""``symdebug.diff(before, after)``: what changed between two runs, and its views.

Each side is a ``TORCH_TRACE`` log or folder, a saved session (``.symdebug.json``), a folder
of rank logs (compared rank by rank), or a session object.  The facts of the diff are
computed once (:mod:`symdebug.queries.diff`); text, JSON, the HTML page and the notebook
display all read them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from symdebug.facts_session import FactsSession
from symdebug.loading import MultiRankSession, open_run
from symdebug.model import json_text
from symdebug.model.diff_types import DiffFacts, FrameDiff, RunDiff, SideKind, diff_document
from symdebug.model.readable import pretty_text
from symdebug.model.types import Facts
from symdebug.queries.diff import diff_facts
from symdebug.renderers.diff_html import write_diff_html
from symdebug.renderers.diff_notebook import diff_mime_bundle
from symdebug.renderers.diff_text import render_diff_text
from symdebug.run_files import run_kind

#: What a side may be: a path, or what :func:`symdebug.load_trace` / ``capture`` gave.
Run = str | os.PathLike[str] | FactsSession | MultiRankSession
Ranked = dict[int | None, Facts]


def _opened(loaded: FactsSession | MultiRankSession, kind: SideKind) -> tuple[Ranked, SideKind]:
    """Facts by rank; a rank folder is of kind ``ranks`` whatever it was read from."""
    if isinstance(loaded, MultiRankSession):
        return {rank: s.facts for rank, s in loaded.ranks.items()}, "ranks"
    return {None: loaded.facts}, kind


def _object_label(run: FactsSession | MultiRankSession) -> str:
    return f"{len(run)} ranks" if isinstance(run, MultiRankSession) else run.facts.source


def open_side(run: Run) -> tuple[Ranked, str, SideKind]:
    """One side's facts by rank (``{None: facts}`` for one process), its label and kind."""
    if isinstance(run, FactsSession | MultiRankSession):
        said: SideKind = "live" if type(run).__name__ == "LiveSession" else "session"
        facts, kind = _opened(run, said)
        return facts, _object_label(run), kind
    path = Path(run)
    if not path.exists():
        raise FileNotFoundError(
            f"{run}: no such file or folder (give a TORCH_TRACE log or folder, a folder of "
            "rank logs, or a saved .symdebug.json)"
        )
    saved = path.is_file() and run_kind(path) == "session"
    opened = open_run(path)  # a file that holds no run is refused, never an empty run
    facts, kind = _opened(opened, "session" if saved else "log")
    return facts, str(run), kind


class SessionDiff:
    """What changed between two runs, frame by frame (see :func:`diff`).

    Attributes
    ----------
    facts
        The diff's facts (:class:`~symdebug.model.diff_types.DiffFacts`): one
        :class:`RunDiff` per rank compared, each with its frames.
    """

    def __init__(self, facts: DiffFacts) -> None:
        self.facts = facts

    @property
    def regressed(self) -> bool:
        """True when a frame compiles more, or gained a specialization or a graph break."""
        return self.facts.regressed

    @property
    def runs(self) -> list[RunDiff]:
        """One diff per rank compared (one, with rank None, for two single runs)."""
        return self.facts.runs

    @property
    def ranks(self) -> dict[int, RunDiff]:
        """The per-rank diffs of two rank folders, by rank (empty for two single runs)."""
        return {run.rank: run for run in self.facts.runs if run.rank is not None}

    @property
    def frames(self) -> list[FrameDiff]:
        """Every frame's changes (of every rank compared)."""
        return [frame for run in self.facts.runs for frame in run.frames]

    @property
    def regressions(self) -> list[FrameDiff]:
        """The frames that got worse."""
        return [frame for frame in self.frames if frame.regressions]

    def to_dict(self) -> dict[str, Any]:
        """The diff document (``diff_version`` and the facts), as every view reads it."""
        return diff_document(self.facts)

    def to_json(self) -> str:
        """The diff document as JSON."""
        return json_text.dumps(self.to_dict()).decode()

    def to_html(self, path: str | os.PathLike[str]) -> Path:
        """Write the diff as a self-contained HTML page (the report's viewer); return its path."""
        return write_diff_html(self.facts, path)

    def _repr_mimebundle_(
        self,
        include: Any = None,  # noqa: ARG002 - IPython's signature; we always offer all three
        exclude: Any = None,  # noqa: ARG002
    ) -> dict[str, Any]:
        """Rich display: the diff document (JupyterLab's viewer), the page, the text."""
        return diff_mime_bundle(self.facts, str(self))

    def __str__(self) -> str:
        return render_diff_text(self.facts)

    def __repr__(self) -> str:
        verdict = "regressed" if self.regressed else "no regression"
        return f"<SessionDiff {self.facts.before} -> {self.facts.after}: {verdict}>"

    _repr_pretty_ = pretty_text


def diff(before: Run, after: Run) -> SessionDiff:
    """Compare two runs: compiles, recompiles, specializations and graph breaks per frame.

    Parameters
    ----------
    before, after
        Each a ``TORCH_TRACE`` log file or folder, a saved session (``.symdebug.json``), a
        folder of rank logs, or a session (``symdebug.capture()``, ``symdebug.load_trace``).

    Returns
    -------
    SessionDiff
        ``regressed``, and per frame (matched by qualified name and file) the compiles
        before and after, the recompiles, specializations and graph breaks added and
        removed; ``str()`` names each regressed frame with its new recompiles' causes and
        user lines.

    Examples
    --------
    >>> d = symdebug.diff("before.log", "after.log")  # doctest: +SKIP
    >>> d.regressed, print(d)  # doctest: +SKIP
    """
    ranked_before, label_before, kind_before = open_side(before)
    ranked_after, label_after, kind_after = open_side(after)
    facts = diff_facts(ranked_before, ranked_after, (label_before, label_after))
    for run in facts.runs:
        run.before.label, run.before.kind = label_before, kind_before
        run.after.label, run.after.kind = label_after, kind_after
    return SessionDiff(facts)

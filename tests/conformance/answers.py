"""A program's answers as one release of torch gives them, in a form every release can match.

What a user reads: compiles per frame, each recompile's cause, user line and first fix,
each input made a constant (its cause), each graph break's line, and ``why`` of each input
a recompile names.  Torch's own numbers that move between releases are left out: compile
ids (torch 2.15's export takes a frame id), framework lines, guard ids.  A program with new
points (``corpus.Program.points``) adds each one's prediction.  The same function
reads a live session and one loaded from a log, so the two can be compared.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

import symdebug
from symdebug.model.types import Compile, Facts, Frame
from symdebug.predict.predict import Prediction

Answers = dict[str, Any]


def _in_torch(filename: str) -> bool:
    """A file of torch itself, whose line numbers move between releases."""
    return "/torch/" in filename.replace("\\", "/")


def _where(frame: Frame | None) -> str:
    if frame is None:
        return ""
    line = "torch" if _in_torch(frame.filename) else frame.lineno
    return f"{PurePath(frame.filename).name}:{line}"


def _frame(compile_: Compile | None) -> str:
    if compile_ is None:
        return "?"
    name = compile_.name  # its code's name: a log has no class (``title`` is live only)
    if _in_torch(compile_.filename):
        name = re.sub(r"_at_\d+$", "_at_torch", name)
    return f"{name} ({PurePath(compile_.filename).name})"


def _compiles(facts: Facts) -> dict[str, int]:
    counts: dict[str, int] = {}
    for compile_ in facts.compiles:
        counts[_frame(compile_)] = counts.get(_frame(compile_), 0) + 1
    return dict(sorted(counts.items()))


def _recompiles(facts: Facts) -> list[list[str]]:
    by_id = {c.compile_id: c for c in facts.compiles}
    return [
        [
            _frame(by_id.get(r.compile_id)),
            r.cause,
            _where(r.user_frame),
            r.fixes[0].code if r.fixes else "",
        ]
        for r in facts.recompiles
    ]


def _constants(facts: Facts) -> list[list[Any]]:
    """Inputs made constants for another reason than the first static compile (sorted)."""
    by_id = {c.compile_id: c for c in facts.compiles}
    found = {
        (_frame(by_id.get(s.compile_id)), str(s.source), str(s.value), str(s.cause))
        for s in facts.specializations
        if s.cause != "static_by_default" and not _expected(facts, s.source, s.compile_id)
    }
    return [list(row) for row in sorted(found)]


def _expected(facts: Facts, source: str, compile_id: str) -> bool:
    """A library's configuration constant (expected: never a finding)."""
    return any(
        s.expected and s.compile_id == compile_id and source in s.sources for s in facts.symbols
    )


def _breaks(facts: Facts) -> list[str]:
    return sorted({_where(b.user_frame or b.library_frame) for b in facts.graph_breaks})


def _why(session: symdebug.Session) -> dict[str, list[str]]:
    """``why`` of each input a recompile names: its state, cause and user line."""
    answers: dict[str, list[str]] = {}
    for recompile in session.facts.recompiles:
        for source in recompile.sources[:1]:
            try:
                explained = session.why(str(source))
            except (KeyError, ValueError):
                continue
            answers[str(source)] = [
                explained.state,
                str(explained.cause),
                _where(explained.user_frame),
            ]
    return dict(sorted(answers.items()))


def predicted(prediction: Prediction) -> str:
    """What a prediction says torch does: ``served``, ``recompile`` or ``eager``."""
    if prediction.recompiles:
        return "recompile"
    return "eager" if prediction.runs_eager else "served"


def _predictions(session: symdebug.Session, points: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Each new point's prediction: what torch does, and whether it is sure."""
    answers: list[list[Any]] = []
    for point in points:
        prediction = session.predict(*point)
        answers.append([predicted(prediction), prediction.certain])
    return answers


def answers_of(session: symdebug.Session, points: Sequence[Sequence[Any]] = ()) -> Answers:
    """The answers of one session (live, or read from a log); ``points`` are predicted."""
    facts = session.facts
    return {
        "compiles": _compiles(facts),
        "recompiles": _recompiles(facts),
        "constants": _constants(facts),
        "graph_breaks": _breaks(facts),
        "why": _why(session),
        "predictions": _predictions(session, points),
    }

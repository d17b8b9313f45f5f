"""The diff of two runs: per frame, compiles before and after, and what was added or removed.

Frames are matched by what was compiled and the file it is defined in (``Encoder.forward``
in ``model.py``), never by line number or compile id: both move when code is edited.  A
resume frame's name carries the line of its graph break (``torch_dynamo_resume_in_f_at_7``),
so that line is left out of its key.  What is compared within a frame is
:mod:`symdebug.queries.diff_items`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from symdebug.model.diff_types import DiffFacts, FrameDiff, FrameStatus, RunDiff, Side, SideKind
from symdebug.model.types import Facts, Frame
from symdebug.queries.diff_items import FrameRun, empty_like, fill_items, frame_key, frames_of

__all__ = ["diff_facts", "frame_diff", "frame_key", "match_frames", "run_diff", "side"]


def _where(frame: Frame | None) -> str:
    return f" at {PurePosixPath(frame.filename).name}:{frame.lineno}" if frame else ""


def _regressions(diff: FrameDiff) -> list[str]:
    """Why a matched frame got worse: more compiles, a new specialization, a new break."""
    more = diff.compiles_after > diff.compiles_before
    said = [f"compiles {diff.compiles_before} -> {diff.compiles_after}"] if more else []
    said += [
        f"new specialization ({spec.cause}): {spec.text}{_where(spec.line)}"
        for spec in diff.specializations_added
    ]
    said += [f"new graph break: {b.text}{_where(b.line)}" for b in diff.graph_breaks_added]
    return said


def frame_diff(before: FrameRun | None, after: FrameRun | None) -> FrameDiff:
    """The diff of one frame; a frame on one side only is ``added`` or ``removed``."""
    either = after if after is not None else before
    assert either is not None, "a frame is on one side at least"
    status: FrameStatus = "matched" if before and after else "added" if after else "removed"
    diff = FrameDiff(
        either.title,
        either.filename,
        status,
        len(before.compiles) if before else 0,
        len(after.compiles) if after else 0,
    )
    fill_items(diff, before or empty_like(either), after or empty_like(either))
    if status == "matched":
        diff.regressions = _regressions(diff)
    elif status == "added" and diff.compiles_after > 1:  # new, and already recompiling
        diff.regressions = [f"new frame, compiled {diff.compiles_after} times"]
    return diff


FrameKey = tuple[str, str]


def _by_file_name(keys: Iterable[FrameKey], *, bare: bool = False) -> dict[FrameKey, FrameKey]:
    """Keys by ``(name, file name)``, for those that are the only one of their kind.

    ``bare``: by the name without its class (``forward`` for ``Encoder.forward``).
    """
    short = {
        key: (key[0].rsplit(".", 1)[-1] if bare else key[0], PurePosixPath(key[1]).name)
        for key in keys
    }
    found = Counter(short.values())
    return {said: key for key, said in short.items() if found[said] == 1}


def match_frames(
    before: Mapping[FrameKey, FrameRun], after: Mapping[FrameKey, FrameRun]
) -> dict[FrameKey, FrameKey]:
    """After's frame key -> before's, by name and file; then by name and file name alone.

    The second pass matches a run whose files moved (another checkout, another machine)
    where the file's name is unambiguous on both sides; the third, a frame named without its
    class (a log's code name, ``forward``) to one named with it (live: ``Encoder.forward``).
    """
    matched = {key: key for key in after if key in before}
    for bare in (False, True):
        left_before = _by_file_name((k for k in before if k not in matched.values()), bare=bare)
        left_after = _by_file_name((k for k in after if k not in matched), bare=bare)
        for short, key in left_after.items():
            if short in left_before:
                matched[key] = left_before[short]
    return matched


def side(facts: Facts, label: str, kind: SideKind) -> Side:
    """One side's totals and the problems met reading it."""
    return Side(
        label,
        kind,
        len(facts.compiles),
        len(facts.recompiles),
        len(facts.graph_breaks),
        dict(facts.problems),
        list(facts.problem_examples),
    )


def run_diff(before: Facts, after: Facts, rank: int | None = None) -> RunDiff:
    """The diff of two runs' facts, frame by frame (matched, then after's new, then gone)."""
    frames_before, frames_after = frames_of(before), frames_of(after)
    matched = match_frames(frames_before, frames_after)
    result = RunDiff(rank, side(before, before.source, "log"), side(after, after.source, "log"))
    for key, run in frames_after.items():
        previous = frames_before[matched[key]] if key in matched else None
        result.frames.append(frame_diff(previous, run))
    gone = set(frames_before) - set(matched.values())
    result.frames += [frame_diff(run, None) for key, run in frames_before.items() if key in gone]
    result.matched = len(matched)
    result.notes = [*_torch_note(before, after), *_run_notes(result, frames_before, frames_after)]
    result.regressed = any(frame.regressions for frame in result.frames)
    return result


def _torch_note(before: Facts, after: Facts) -> list[str]:
    """Two torch versions (an upgrade, or a downgrade): what changed may be torch's doing."""
    versions = before.torch.version, after.torch.version
    if not all(versions) or versions[0] == versions[1]:
        return []
    return [f"torch {versions[0]} before, {versions[1]} after: frames matched across versions"]


def _run_notes(
    result: RunDiff, before: Mapping[FrameKey, FrameRun], after: Mapping[FrameKey, FrameRun]
) -> list[str]:
    if not before and not after:
        return ["neither run compiled anything"]
    if result.matched == 0:
        return ["nothing matched: the two runs share no compiled frame (different programs?)"]
    return []


Ranked = Mapping[int | None, Facts]


def _ranked(runs: Ranked) -> dict[int | None, Facts]:
    """A single run (key None) as its own rank (0 when it has none), beside a rank folder."""
    if list(runs) != [None]:
        return dict(runs)
    facts = runs[None]
    return {facts.rank if facts.rank is not None else 0: facts}


def _rank_notes(before: Ranked, after: Ranked) -> list[str]:
    only = "rank {} is in the run {} only: its frames are listed as {}"
    said = [only.format(r, "before", "removed") for r in sorted(set(before) - set(after), key=str)]
    return said + [
        only.format(r, "after", "added") for r in sorted(set(after) - set(before), key=str)
    ]


def diff_facts(
    before: Ranked, after: Ranked, labels: tuple[str, str] = ("before", "after")
) -> DiffFacts:
    """The diff of two runs, rank by rank.

    Parameters
    ----------
    before, after
        Each run's facts by rank; ``{None: facts}`` for a run of one process.  A single
        run beside a rank folder is compared with its own rank (0 when it has none).
    labels
        What each side was read from (a path), as the views name it.

    Returns
    -------
    DiffFacts
        One :class:`RunDiff` per rank (one with rank None for two single runs); a rank on
        one side only is compared with an empty run and noted.
    """
    result = DiffFacts(*labels)
    if list(before) != [None] or list(after) != [None]:
        before, after = _ranked(before), _ranked(after)
        result.notes = _rank_notes(before, after)
    for rank in sorted(set(before) | set(after), key=lambda r: -1 if r is None else r):
        result.runs.append(run_diff(before.get(rank, Facts()), after.get(rank, Facts()), rank))
    result.regressed = any(run.regressed for run in result.runs)
    return result

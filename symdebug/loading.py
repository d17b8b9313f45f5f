"""Open sessions from files: ``load_trace`` for TORCH_TRACE logs, ``load`` for saved sessions."""

from __future__ import annotations

import os
from pathlib import Path

from symdebug.api import Session
from symdebug.pipeline import build
from symdebug.tracefile import discover_trace_files, rank_of, read_trace_file


class MultiRankSession:
    """One Session per rank of a distributed job's trace directory."""

    def __init__(self, ranks: dict[int, Session]) -> None:
        self.ranks = ranks

    def __getitem__(self, rank: int) -> Session:
        return self.ranks[rank]

    def __len__(self) -> int:
        return len(self.ranks)

    def __str__(self) -> str:
        lines = [f"symdebug: {len(self.ranks)} ranks"]
        for rank, session in sorted(self.ranks.items()):
            facts = session.facts
            lines.append(
                f"  rank {rank}: {len(facts.compiles)} compiles, {len(facts.recompiles)} recompiles"
            )
        return "\n".join(lines)


def load_trace_file(path: Path) -> Session:
    """One log file as a Session."""
    stream = read_trace_file(path)
    facts = build(stream)
    facts.rank = rank_of(path, stream)
    return Session(facts)


def load_trace(path: str | os.PathLike[str]) -> Session | MultiRankSession:
    """Read a TORCH_TRACE log file or directory.

    Parameters
    ----------
    path
        A log file, or a directory of logs (one per rank).

    Returns
    -------
    Session or MultiRankSession
        A Session for one log, a MultiRankSession when the directory holds several.
    """
    files = discover_trace_files(Path(path))
    if len(files) == 1:
        return load_trace_file(files[0])
    sessions = [load_trace_file(file) for file in files]
    ranks = {
        session.facts.rank if session.facts.rank is not None else index: session
        for index, session in enumerate(sessions)
    }
    return MultiRankSession(ranks)


def load(path: str | os.PathLike[str]) -> Session:
    """Read a session saved with :meth:`Session.save`."""
    return Session.load(path)

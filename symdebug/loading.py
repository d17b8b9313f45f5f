"""Open sessions from files: ``load_trace`` for TORCH_TRACE logs, ``load`` for saved sessions.

A directory of rank logs is read one log per process: a local pool (``jobs``), or the
workers of a Dask cluster the user points at (``dask``); either gives what the serial path
gives, rank by rank.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from symdebug.api import Session
from symdebug.model.types import Facts
from symdebug.model.words import counted
from symdebug.pipeline import build
from symdebug.queries.ranks import Divergence, divergence
from symdebug.tracefile import discover_trace_files, rank_of, read_trace_file


class MultiRankSession:
    """One Session per rank of a distributed job's trace directory."""

    def __init__(self, ranks: dict[int, Session], notes: list[str] | None = None) -> None:
        self.ranks = ranks
        #: How logs were numbered where their names and events did not say one rank each.
        self.notes = notes or []

    def __getitem__(self, rank: int) -> Session:
        return self.ranks[rank]

    def __len__(self) -> int:
        return len(self.ranks)

    def divergence(self) -> Divergence:
        """Where the ranks' compiles differ: per frame, the first difference and odd ranks."""
        return divergence({rank: session.facts for rank, session in self.ranks.items()})

    def __str__(self) -> str:
        lines = [f"symdebug: {len(self.ranks)} ranks"]
        for rank, session in sorted(self.ranks.items()):
            facts = session.facts
            compiles = counted(len(facts.compiles), "compile")
            lines.append(
                f"  rank {rank}: {compiles}, {counted(len(facts.recompiles), 'recompile')}"
            )
        return "\n".join([*lines, *(f"  note: {n}" for n in self.notes), str(self.divergence())])

    def to_html(self, path: str | os.PathLike[str], reports: dict[int, str] | None = None) -> Path:
        """Write the rank matrix (frames by ranks, differences marked) as one HTML file."""
        from symdebug.renderers.ranks_html import render_ranks

        out = Path(path)
        out.write_text(render_ranks(self.divergence(), reports or {}), encoding="utf-8")
        return out


def trace_facts(path: str | os.PathLike[str]) -> Facts:
    """The facts of one log file, with its rank (what each worker returns)."""
    file = Path(path)
    stream = read_trace_file(file)
    facts = build(stream)
    facts.rank = rank_of(file, stream)
    return facts


def load_trace_file(path: Path) -> Session:
    """One log file as a Session."""
    return Session(trace_facts(path))


def _pooled(files: list[Path], jobs: int) -> list[Facts]:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    # spawn: the caller may hold threads or torch state a fork would copy half-made.  It
    # imports the caller's main module, which IPython and Jupyter replace by one that has
    # no __spec__: there, fork (the workers only read files).
    method = "spawn" if hasattr(sys.modules["__main__"], "__spec__") else "fork"
    with ProcessPoolExecutor(min(jobs, len(files)), mp_context=get_context(method)) as pool:
        return list(pool.map(trace_facts, [str(f) for f in files]))


def _on_dask(files: list[Path], dask: Any) -> list[Facts]:
    """Each log read by a worker of a Dask cluster (an address or a ``Client``)."""
    from distributed import Client

    connect: Any = Client  # distributed ships no type hints
    client: Any = dask if isinstance(dask, Client) else connect(str(dask))
    try:
        futures = client.map(trace_facts, [str(f) for f in files], pure=False)
        return list(client.gather(futures))
    finally:
        if client is not dask:
            client.close()


def _read(files: list[Path], jobs: int | None, dask: Any) -> list[Facts]:
    if dask is not None:
        return _on_dask(files, dask)
    jobs = jobs if jobs is not None else os.cpu_count() or 1
    if jobs > 1 and len(files) > 1:
        try:
            return _pooled(files, jobs)
        except (OSError, RuntimeError, AttributeError):  # RuntimeError: BrokenProcessPool too
            pass  # no process could start here: read them in this one, same answers
    return [trace_facts(file) for file in files]


def load_trace(
    path: str | os.PathLike[str], *, jobs: int | None = None, dask: Any = None
) -> Session | MultiRankSession:
    """Read a TORCH_TRACE log file or directory.

    Parameters
    ----------
    path
        A log file, or a directory of logs (one per rank).
    jobs
        Processes reading a directory's logs at once (default: the machine's cores; 1
        reads them here, one after another).
    dask
        A Dask ``distributed.Client``, or its scheduler's address (``tcp://host:8786``):
        its workers read the logs instead of local processes.

    Returns
    -------
    Session or MultiRankSession
        A Session for one log, a MultiRankSession when the directory holds several.
    """
    files = discover_trace_files(Path(path))
    if len(files) == 1:
        return load_trace_file(files[0])
    ranks, notes = _numbered(_read(files, jobs, dask))
    return MultiRankSession(ranks, notes)


def _numbered(read: list[Facts]) -> tuple[dict[int, Session], list[str]]:
    """Each log under its rank; a second log of a rank, or one without, after the last rank.

    Nothing is dropped: two logs of rank 0 (two runs in one folder) are both kept.
    """
    known = [f.rank for f in read if f.rank is not None]
    spare = max(known, default=-1) + 1
    ranks: dict[int, Session] = {}
    notes = []
    for facts in read:
        rank = facts.rank
        if rank is None or rank in ranks:
            said = "has no rank" if rank is None else f"is a second log of rank {rank}"
            notes.append(f"{facts.source} {said}: shown as rank {spare}")
            facts.rank, rank, spare = spare, spare, spare + 1
        ranks[rank] = Session(facts)
    return ranks, notes


def load(path: str | os.PathLike[str]) -> Session:
    """Read a session saved with :meth:`Session.save`."""
    return Session.load(path)

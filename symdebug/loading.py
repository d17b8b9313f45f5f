"""Open sessions from files: ``load_trace`` for TORCH_TRACE logs, ``load`` for saved sessions.

A directory of rank logs is read one log per process: a local pool (``jobs``), or the
workers of a Dask cluster the user points at (``dask``); either gives what the serial path
gives, rank by rank.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from symdebug.api import Session
from symdebug.dask_client import DASK_CONNECT_SECONDS, connect_dask
from symdebug.events import EventStream
from symdebug.model.types import Facts
from symdebug.model.words import counted
from symdebug.pipeline import build, without_unread_payloads
from symdebug.queries.ranks import Divergence, divergence
from symdebug.renderers.console import not_a_log
from symdebug.run_files import run_kind
from symdebug.torchtext.source_text import log_sources_read
from symdebug.tracefile import discover_trace_files, folder_logs, iter_trace_events, rank_of


class MultiRankSession:
    """One Session per rank of a distributed job's trace directory."""

    def __init__(
        self,
        ranks: dict[int, Session],
        notes: list[str] | None = None,
        labels: dict[int, str] | None = None,
    ) -> None:
        self.ranks = ranks
        #: Entries of the folder not read, and how logs were numbered where their names and
        #: events did not say one rank each.
        self.notes = notes or []
        #: The name of each log that is no rank of its own (a second log of rank 0 is kept
        #: after the last rank, as ``rank 0 (second log)``), by its key in ``ranks``.
        self.labels = labels or {}

    def label(self, key: int) -> str:
        """What the views call the log under ``key``: ``rank 2``, ``rank 0 (second log)``."""
        return self.labels.get(key, f"rank {key}")

    def __getitem__(self, rank: int) -> Session:
        return self.ranks[rank]

    def __len__(self) -> int:
        return len(self.ranks)

    def divergence(self) -> Divergence:
        """Where the ranks' compiles differ: per frame, the first difference and odd ranks."""
        facts = {rank: session.facts for rank, session in self.ranks.items()}
        return divergence(facts, self.labels)

    def __str__(self) -> str:
        lines = [f"symdebug: {len(self.ranks)} ranks"]
        for rank, session in sorted(self.ranks.items()):
            lines.append(f"  {self.label(rank)}: {_counts(session.facts)}")
        return "\n".join([*lines, *(f"  note: {n}" for n in self.notes), str(self.divergence())])

    def to_html(
        self,
        path: str | os.PathLike[str],
        reports: dict[int, str] | None = None,
        *,
        redact: bool = False,
    ) -> Path:
        """Write the rank matrix (frames by ranks, differences marked) as one HTML file.

        Parameters
        ----------
        path
            Where to write the page.
        reports
            Each rank's own report, by its key in ``ranks``, relative to the page (linked).
        redact
            Leave out directories, source lines, torch's stack texts and compared strings,
            as the ranks' reports written with ``redact=True`` do.
        """
        # lazy: the ranks page's renderers, for those who write it, not for `import symdebug`
        from symdebug.renderers.ranks_html import render_ranks  # noqa: PLC0415

        page = render_ranks(self.divergence(), reports or {}, self.notes, redact=redact)
        out = Path(path)
        out.write_text(page, encoding="utf-8")
        return out


def _counts(facts: Facts) -> str:
    """A rank's line of the summary: its compiles, recompiles and the problems of its log."""
    compiles = counted(len(facts.compiles), "compile")
    said = f"{compiles}, {counted(len(facts.recompiles), 'recompile')}"
    problems = ", ".join(f"{kind} {n}" for kind, n in sorted(facts.problems.items()))
    return f"{said}; problems reading its log: {problems}" if problems else said


def trace_facts(path: str | os.PathLike[str], sources: bool = False) -> Facts:
    """The facts of one log file, with its rank (what each worker returns).

    ``sources``: also read the source files the log names, from this machine's disk.
    """
    file = Path(path)
    stream = EventStream(source=str(path))
    stream.events.extend(without_unread_payloads(iter_trace_events(file, stream)))
    with log_sources_read() if sources else nullcontext():
        facts = build(stream)
    facts.rank = rank_of(file, stream)
    return facts


def load_trace_file(path: Path, sources: bool = False) -> Session:
    """One log file as a Session."""
    return Session(trace_facts(path, sources))


#: What a worker answers for one log: its facts, or why it could not be read.
Read = Facts | str


def read_or_why(path: str | os.PathLike[str], sources: bool = False) -> Read:
    """:func:`trace_facts`, or why the log could not be read (a rank's problem alone)."""
    try:
        return trace_facts(path, sources)
    except (OSError, ValueError) as error:  # a permission, a file gone, bytes not text
        return f"{type(error).__name__}: {getattr(error, 'strerror', None) or error}"


def _pooled(files: list[Path], jobs: int, sources: bool) -> list[Read]:
    # lazy: process pools only for a folder of logs, not for `import symdebug`
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
    from multiprocessing import get_context  # noqa: PLC0415

    # spawn: the caller may hold threads or torch state a fork would copy half-made.  It
    # imports the caller's main module, which IPython and Jupyter replace by one that has
    # no __spec__: there, fork (the workers only read files).
    method = "spawn" if hasattr(sys.modules["__main__"], "__spec__") else "fork"
    with ProcessPoolExecutor(min(jobs, len(files)), mp_context=get_context(method)) as pool:
        return list(pool.map(read_or_why, [str(f) for f in files], [sources] * len(files)))


def _on_dask(files: list[Path], dask: Any, timeout: float, sources: bool) -> list[Read]:
    """Each log read by a worker of a Dask cluster (an address or a ``Client``)."""
    # lazy: distributed is an optional dependency, for --dask only
    from distributed import Client  # noqa: PLC0415

    client: Any = dask if isinstance(dask, Client) else connect_dask(str(dask), timeout)
    try:
        futures = client.map(read_or_why, [str(f) for f in files], sources=sources, pure=False)
        return list(client.gather(futures))
    finally:
        if client is not dask:
            client.close()


def _read(
    files: list[Path], jobs: int | None, dask: Any, dask_timeout: float, sources: bool
) -> list[Read]:
    if dask is not None:
        return _on_dask(files, dask, dask_timeout, sources)
    jobs = jobs if jobs is not None else os.cpu_count() or 1
    if jobs > 1 and len(files) > 1:
        try:
            return _pooled(files, jobs, sources)
        except (OSError, RuntimeError, AttributeError):  # RuntimeError: BrokenProcessPool too
            pass  # no process could start here: read them in this one, same answers
    return [read_or_why(file, sources) for file in files]


def load_trace(
    path: str | os.PathLike[str],
    *,
    jobs: int | None = None,
    dask: Any = None,
    dask_timeout: float = DASK_CONNECT_SECONDS,
    sources: bool = False,
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
    dask_timeout
        Seconds to wait for the scheduler at a ``dask`` address to answer (30).
    sources
        Also read the source files the log names, from the disk of the machine reading it
        (``forward``'s parameter names, the line that marked a dim, a list's first use).
        Off by default: the document then depends on the log alone.

    Returns
    -------
    Session or MultiRankSession
        A Session for one log, a MultiRankSession when the directory holds several.
    """
    root = Path(path)
    files, notes = folder_logs(root) if root.is_dir() else (discover_trace_files(root), [])
    if len(files) == 1 and not notes:
        return load_trace_file(files[0], sources)
    read = _read(files, jobs, dask, dask_timeout, sources)
    return _rank_folder(root, files, read, notes)


def _rank_folder(
    root: Path, files: list[Path], read: list[Read], notes: list[str]
) -> MultiRankSession:
    """The logs read, each under its rank; a note for each log that could not be read."""
    notes = notes + [
        f"{file.name} could not be read ({why}): left out"
        for file, why in zip(files, read, strict=True)
        if isinstance(why, str)
    ]
    ranks, labels, numbering = _numbered([facts for facts in read if not isinstance(facts, str)])
    if not ranks:
        raise ValueError("; ".join([f"no TORCH_TRACE log in {root} could be read", *notes]))
    return MultiRankSession(ranks, notes + numbering, labels)


def _numbered(read: list[Facts]) -> tuple[dict[int, Session], dict[int, str], list[str]]:
    """Each log under its rank; a second log of a rank, or one without, after the last rank.

    Nothing is dropped: two logs of rank 0 (two runs in one folder) are both kept, the
    second under a key past the last rank and labelled ``rank 0 (second log)``: never
    called a rank it is not.  Its facts keep the rank its log says.
    """
    spare = max((f.rank for f in read if f.rank is not None), default=-1) + 1
    ranks: dict[int, Session] = {}
    labels: dict[int, str] = {}
    notes = []
    logs_of: Counter[int | None] = Counter()
    for facts in read:
        logs_of[facts.rank] += 1
        key = facts.rank
        if key is None or key in ranks:
            key, spare = spare, spare + 1
            labels[key] = _label(facts.rank, logs_of[facts.rank])
            said = "has no rank" if facts.rank is None else f"is a second log of rank {facts.rank}"
            notes.append(f"{facts.source} {said}: shown as {labels[key]}")
        ranks[key] = Session(facts)
    return ranks, labels, notes


_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _label(rank: int | None, nth: int) -> str:
    """``rank 0 (second log)``, ``rank 0 (log 7)``; ``log without rank`` (``2``, ...)."""
    if rank is None:
        return "log without rank" + (f" {nth}" if nth > 1 else "")
    return f"rank {rank} ({_ORDINALS[nth]} log)" if nth in _ORDINALS else f"rank {rank} (log {nth})"


def load(path: str | os.PathLike[str]) -> Session:
    """Read a session saved with :meth:`Session.save` (gzip-compressed too)."""
    return Session.load(path)


def open_run(path: str | os.PathLike[str], **trace_options: Any) -> Session | MultiRankSession:
    """A saved session, or a TORCH_TRACE log or folder, told apart by what the file holds.

    ``trace_options`` go to :func:`load_trace`.  Every command that reads a run opens it
    here, so ``summary``, ``why``, ``report`` and ``diff`` accept the same files.

    Raises
    ------
    ValueError
        For a file that holds no run: empty, or no line of it a TORCH_TRACE record (random
        bytes, a text file, zeros), or text in UTF-16.
    """
    file = Path(path)
    kind = run_kind(file) if file.is_file() else "log"
    if kind == "session":
        return load(file)
    if kind == "empty":
        raise ValueError(f"{path}: an empty file (no TORCH_TRACE record, no saved session)")
    loaded = load_trace(file, **trace_options)
    if isinstance(loaded, Session) and not loaded.facts.compiles:
        hint = not_a_log(loaded.facts)
        if hint:  # a file of no records is a usage error, never a run without compiles
            raise ValueError(f"{path}: {hint}")
    return loaded

"""Stream torch's structured trace logs (``TORCH_TRACE``) into an :class:`EventStream`.

A record is one glog-prefixed line holding a JSON envelope, optionally followed by payload
lines that each start with one tab.  Files are read line by line, never whole; bad input is
recorded as :class:`Problem` entries and reading goes on.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TextIO

from symdebug.events import CompileKey, Event, EventStream, JSONDict, Problem, slim_body
from symdebug.file_kinds import check_regular
from symdebug.tracefile.folder import folder_logs

try:
    import orjson

    _fast_loads: Callable[[str], Any] = orjson.loads
except ImportError:  # pragma: no cover - orjson is a declared dependency
    _fast_loads = json.loads

__all__ = ["discover_trace_files", "iter_trace_events", "rank_of", "read_trace_file"]

_PREFIX = re.compile(
    r"(?P<level>[VIWEC])(?P<month>\d{2})(?P<day>\d{2}) (?P<hour>\d{2}):(?P<minute>\d{2}):"
    r"(?P<second>\d{2})\.(?P<us>\d{6}) (?P<thread>\d+)(?P<pathname>[^:]+):(?P<line>\d+)\] "
    r"(?P<json>.*)"
)
_RANK = re.compile(r"rank_(\d+)")
#: Envelope keys read into Event fields; the other context keys go to ``Event.extra``.
_KEY_FIELDS = frozenset(
    ("frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "rank", "has_payload")
)
_CONTEXT_KEYS = _KEY_FIELDS | {"subgraph_name", "stack"}
_DETAIL_MAX = 200
#: Records not read at all (live capture ignores them too): their JSON is never parsed.
_IGNORED = '] {"chromium_event": '
_IGNORED_NAME = "chromium_event"
_MD5 = re.compile(r'"has_payload": "([^"]*)"')
_BLANK = frozenset(("", "\n", "\r\n"))
#: The longest line read, in characters.  torch's longest lines in the logs of tests/data are
#: under 300 thousand; a longer one (a runaway payload, a file without newlines) is a problem
#: and is skipped, read through in pieces of this size so that it never sits whole in memory.
MAX_LINE_CHARS = 64 * 2**20
#: The pieces the rest of such a line is read in (characters).
_SKIP_PIECE = 2**20


class _BadRecordError(Exception):
    """A record line that cannot be read; ``kind`` is the :class:`Problem` kind."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = _short(detail)


@dataclass(slots=True)
class _Pending:
    """An event whose payload lines are still being collected."""

    event: Event
    md5: str
    lineno: int
    lines: list[str]
    #: A record not read (a timing span): its payload's MD5 is checked, no event is made.
    ignored: bool = False


def _short(text: str) -> str:
    return text if len(text) <= _DETAIL_MAX else text[:_DETAIL_MAX] + "..."


def _loads(text: str) -> Any:
    """Parse JSON with orjson, falling back to ``json`` (accepts NaN/Infinity torch may write)."""
    try:
        return _fast_loads(text)
    except ValueError:
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise _BadRecordError("bad_json", f"invalid JSON: {exc}") from None


def _int_field(envelope: JSONDict, name: str) -> int | None:
    value = envelope.get(name)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise _BadRecordError("bad_envelope", f"{name} is not an integer: {value!r}")


def _compile_key(envelope: JSONDict) -> CompileKey | None:
    frame_id = _int_field(envelope, "frame_id")
    if frame_id is None:
        return None
    frame_compile_id = _int_field(envelope, "frame_compile_id")
    if frame_compile_id is None:
        raise _BadRecordError("bad_envelope", "frame_id without frame_compile_id")
    autograd_id = _int_field(envelope, "compiled_autograd_id")
    return _key(frame_id, frame_compile_id, _int_field(envelope, "attempt") or 0, autograd_id)


#: One key object per compile attempt: the events of a compile share it, which saves memory
#: and lets grouping tell an event of the same compile by identity.
_key = lru_cache(maxsize=65536)(CompileKey)


def _intern(value: Any, stream: EventStream) -> None:
    """Record one ``{"str": [string, id]}`` entry in the stream's string table."""
    if (
        isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[0], str)
        and isinstance(value[1], int) and not isinstance(value[1], bool)
    ):  # fmt: skip
        stream.strings[value[1]] = value[0]
        return
    raise _BadRecordError("bad_envelope", f"malformed str entry: {value!r}")


def _envelope_text(line: str) -> str:
    match = _PREFIX.match(line) or _PREFIX.search(line)
    if match is None:
        raise _BadRecordError("bad_prefix", f"no glog prefix: {line.rstrip()}")
    return match.group("json")


def _parse_record(text: str, lineno: int, stream: EventStream) -> _Pending | Event | None:
    """Turn one envelope's JSON text into an event (a pending one if a payload follows)."""
    envelope = _loads(text)
    if not isinstance(envelope, dict):
        raise _BadRecordError("bad_envelope", f"envelope is not an object: {text}")
    name = next((key for key in envelope if key not in _CONTEXT_KEYS), None)
    if name is None:
        raise _BadRecordError("bad_envelope", f"no event name in envelope: {text}")
    if name == "str":
        _intern(envelope["str"], stream)
        return None
    body = envelope[name]
    if not isinstance(body, dict):
        body = {"value": body}
    label = name
    if name == "artifact" and isinstance(body.get("name"), str):
        label = f"artifact:{body['name']}"
    body = slim_body(name, body)
    stream.share_frames(body)
    event = Event(label, body, _compile_key(envelope), rank=_int_field(envelope, "rank"))
    for key, value in envelope.items():
        if key != name and key not in _KEY_FIELDS:
            event.extra[key] = value
    md5 = envelope.get("has_payload")
    if md5 is None:
        return event
    if not isinstance(md5, str):
        raise _BadRecordError("bad_envelope", f"has_payload is not a string: {md5!r}")
    return _Pending(event, md5, lineno, [])


def _finish(pending: _Pending, stream: EventStream, source: str, crlf: bool) -> Event:
    """Attach the collected payload to the pending event and check its MD5."""
    payload = "".join(pending.lines)  # each part still ends with its line end
    if crlf:
        payload = payload.replace("\r\n", "\n")
    if payload.endswith("\n"):
        payload = payload[:-1]
    digest = hashlib.md5(payload.encode("utf-8"), usedforsecurity=False).hexdigest()
    if digest != pending.md5:
        detail = f"{pending.event.name}: payload md5 {digest} != has_payload {pending.md5}"
        stream.problems.append(Problem("payload_md5", f"{source}:{pending.lineno}", detail))
    pending.event.payload = payload
    return pending.event


def _read_records(handle: TextIO, stream: EventStream, source: str, limit: int) -> Iterator[Event]:
    """Run the line state machine behind :func:`iter_trace_events`.

    Lines keep their ends until a payload is joined; a file whose first record line ends in
    CRLF has CRLF payload line ends too.  A line of ``limit`` characters or more is skipped.
    """
    pending: _Pending | None = None
    quiet_tabs = False  # tab lines after a bad record belong to it; an orphan run reports once
    crlf: bool | None = None
    for lineno, line in enumerate(iter(partial(handle.readline, limit), ""), 1):
        if len(line) == limit and line[-1] != "\n":  # past the limit: counted, never kept
            start = line[:_DETAIL_MAX]
            stream.problems.append(_skip_long(handle, limit, start, f"{source}:{lineno}"))
            if not start.startswith("\t"):  # a record: it ends the one before, owns tabs after
                yield from _flushed(pending, stream, source, bool(crlf))
                pending, quiet_tabs = None, True
            continue
        if line.startswith("\t"):
            if pending is not None:
                pending.lines.append(line[1:])
            elif not quiet_tabs:
                quiet_tabs = True
                detail = _short(line[1:].rstrip("\r\n"))
                stream.problems.append(Problem("orphan_payload", f"{source}:{lineno}", detail))
            continue
        if line in _BLANK:
            continue
        yield from _flushed(pending, stream, source, bool(crlf))
        pending, quiet_tabs = None, False
        crlf = line.endswith("\r\n") if crlf is None else crlf
        if _IGNORED in line:  # timing spans for Perfetto: no shape fact, never parsed
            pending = _ignored(line, lineno)
            continue
        try:
            record = _parse_record(_envelope_text(line), lineno, stream)
        except _BadRecordError as bad:
            stream.problems.append(Problem(bad.kind, f"{source}:{lineno}", bad.detail))
            quiet_tabs = True
            continue
        if isinstance(record, _Pending):
            pending = record
        elif record is not None:
            yield record
    yield from _flushed(pending, stream, source, bool(crlf))


def _skip_long(handle: TextIO, limit: int, start: str, where: str) -> Problem:
    """Read the rest of a line past the limit, a piece at a time; the problem that says so."""
    while (piece := handle.readline(_SKIP_PIECE)) and piece[-1] != "\n":
        pass
    detail = f"a line of {limit} characters or more, skipped: {start.rstrip()}..."
    return Problem("line_too_long", where, detail)


def _flushed(pending: _Pending | None, stream: EventStream, source: str, crlf: bool) -> list[Event]:
    """The finished event, or none for a record that is not read (or none pending)."""
    if pending is None:
        return []
    event = _finish(pending, stream, source, crlf)
    return [] if pending.ignored else [event]


def _ignored(line: str, lineno: int) -> _Pending | None:
    """A record that is not read; its payload is still collected for the MD5 check."""
    found = _MD5.search(line)
    if found is None:
        return None
    return _Pending(Event(_IGNORED_NAME, {}, None), found[1], lineno, [], ignored=True)


def iter_trace_events(
    path: str | os.PathLike[str], stream: EventStream, *, max_line: int | None = None
) -> Iterator[Event]:
    """Yield one log's events in file order, filling ``stream.strings`` and ``stream.problems``.

    The file is read line by line when iteration starts; undecodable bytes are replaced, and
    a line of ``max_line`` characters or more (default :data:`MAX_LINE_CHARS`, read when
    called) is a ``line_too_long`` problem, skipped.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist (raised at call time, as the two errors below).
    IsADirectoryError
        If ``path`` is a directory.
    ValueError
        If ``path`` is no regular file (a FIFO, a device such as ``/dev/zero``, a socket):
        reading one could block or never end.
    """
    file = Path(path)
    check_regular(file, "TORCH_TRACE log")
    limit = MAX_LINE_CHARS if max_line is None else max(1, max_line)  # -1 would be no limit
    return _iter_file(file, stream, str(path), limit)


def _open_text(file: Path) -> TextIO:
    """Open a log as text; a gzip-compressed one (``.gz``, as logs are often shared) too."""
    if file.name.endswith(".gz"):
        return gzip.open(file, "rt", encoding="utf-8", errors="replace", newline="\n")
    return file.open(encoding="utf-8", errors="replace", newline="\n")


def _iter_file(file: Path, stream: EventStream, source: str, limit: int) -> Iterator[Event]:
    """The file's events; a damaged gzip (truncated, or no gzip at all) keeps what came first."""
    with _open_text(file) as handle:
        try:
            yield from _read_records(handle, stream, source, limit)
        except (EOFError, OSError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
            detail = f"{type(error).__name__}: {error}; the events before the damage are kept"
            stream.problems.append(Problem("damaged_file", source, _short(detail)))


def read_trace_file(path: str | os.PathLike[str], *, max_line: int | None = None) -> EventStream:
    """Read a whole trace log into an :class:`EventStream` whose ``source`` is ``str(path)``.

    A line of ``max_line`` characters or more is a ``line_too_long`` problem, skipped.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If ``path`` is no regular file (see :func:`iter_trace_events`).
    """
    stream = EventStream(source=str(path))
    stream.events.extend(iter_trace_events(path, stream, max_line=max_line))
    return stream


def discover_trace_files(path: str | os.PathLike[str]) -> list[Path]:
    """List the trace logs at ``path``: the file itself, or a directory's non-empty logs.

    Logs are ``*.log`` files, or ``*.log.gz`` when compressed.

    Rank files (``..._rank_N...log``) come first in rank order, then the others by name.
    Only the folder's regular files are read (:func:`~symdebug.tracefile.folder.folder_logs`
    says which entries it refused, and why).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If ``path`` is a directory without any non-empty ``.log`` file.
    """
    root = Path(path)
    if not root.exists():
        raise FileNotFoundError(f"TORCH_TRACE path not found: {root}")
    if not root.is_dir():
        return [root]
    return folder_logs(root)[0]


def rank_of(path: Path, stream: EventStream) -> int | None:
    """Return a log's rank: ``rank_N`` in its file name, else the first event's rank."""
    match = _RANK.search(path.name)
    if match:
        return int(match.group(1))
    return next((event.rank for event in stream.events if event.rank is not None), None)

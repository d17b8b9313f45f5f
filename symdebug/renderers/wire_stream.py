"""A big session's report and redacted save, written a guard at a time (issue 33, item 12).

The report's wire (:func:`~symdebug.renderers.document.wire_document`) and the redacted
document hold every guard as a dict, each frame of its stacks one too: some 9 KiB per guard,
9 GB for a session of a million.  Here the guards are never a document: a first pass over
them gathers what redaction needs of the whole session (the strings it compares), then each
guard is made a dict, redacted, packed and written in turn, and let go.  The rest of the
session (its records do not grow with the guards) is a document as before.  The bytes are
those the whole document's way writes.  The wire's shared frames come before the guards but
are known once every guard is packed: the guards' rows wait in a temporary file meanwhile.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from symdebug.model import json_text
from symdebug.model.serialize import facts_to_dict, record_to_dict
from symdebug.model.types import Facts, Guard
from symdebug.renderers import wire_json
from symdebug.renderers.compared_values import compared_strings, hider
from symdebug.renderers.document import Packer, redacted_guard, redacted_owned

_Hide = Callable[[Any], Any]
#: Bytes of the guards' rows read back from their temporary file at a time.
_READ = 1 << 20


def report_pieces(facts: Facts, *, redact: bool = False) -> Iterator[bytes]:
    """The inert JSON of ``wire_document(facts, redact=redact)``, a piece at a time.

    Parameters
    ----------
    facts
        The session's facts (left as they are).
    redact
        Redact the session as the shared report does.

    Yields
    ------
    bytes
        Pieces whose concatenation is the wire's inert JSON
        (:func:`~symdebug.renderers.wire_json.inert_pieces`).
    """
    hide, rest = _rest(facts, redact)
    packer = Packer()
    with tempfile.TemporaryFile() as rows:
        columns = _packed_rows(facts.guards, packer, hide, rows)
        streamed = ("guards",) if columns else ()
        wire = packer.wire(rest, redact=redact, streamed=streamed)
        written = {"guards": _table_pieces(columns, rows)} if columns else {}
        yield from wire_json.inert_pieces(wire, written)


def redacted_json_pieces(facts: Facts) -> Iterator[bytes]:
    """The redacted session document's JSON (``redacted_json``), a piece at a time.

    Parameters
    ----------
    facts
        The session's facts (left as they are).

    Yields
    ------
    bytes
        Pieces whose concatenation is the redacted document's JSON.
    """
    hide, rest = _rest(facts, redact=True)
    yield b"{"
    for number, (key, value) in enumerate(rest.items()):
        yield (b"," if number else b"") + json_text.dumps(key) + b":"
        if key == "guards":
            yield from _json_list(_guard_dicts(facts.guards, hide))
        else:
            yield json_text.dumps(value)
    yield b"}"


def _rest(facts: Facts, redact: bool) -> tuple[_Hide | None, dict[str, Any]]:
    """The session document with no guards, redacted if asked; and how to hide in a guard."""
    rest = facts_to_dict(dataclasses.replace(facts, guards=[]))
    if not redact:
        return None, rest
    # The first pass: a string compared in any record is hidden in every record.
    hidden = compared_strings(rest) | _compared_in_guards(facts.guards)
    return hider(hidden), redacted_owned(rest, facts, hidden)


def _compared_in_guards(guards: list[Guard]) -> set[str]:
    found: set[str] = set()
    for guard in guards:
        found |= compared_strings(record_to_dict(guard))
    return found


def _guard_dicts(guards: list[Guard], hide: _Hide | None) -> Iterator[dict[str, Any]]:
    """Each guard as the document holds it; redacted, a copy (the facts share its lists)."""
    for guard in guards:
        record = record_to_dict(guard)
        yield record if hide is None else redacted_guard(_copy(record), hide)


def _copy(value: Any) -> Any:
    """A copy as the document's JSON reads back, as the whole document's redaction makes."""
    return json_text.loads(json_text.dumps(value))


def _json_list(items: Iterable[Any]) -> Iterator[bytes]:
    yield b"["
    for number, item in enumerate(items):
        yield (b"," if number else b"") + json_text.dumps(item)
    yield b"]"


def _packed_rows(
    guards: list[Guard], packer: Packer, hide: _Hide | None, rows: IO[bytes]
) -> list[str]:
    """Pack each guard, writing its row's inert JSON to ``rows``; the rows' columns.

    Every guard has the same keys (one dataclass's fields): the guards are one table.
    """
    columns: list[str] = []
    chunk: list[list[Any]] = []
    for record in _guard_dicts(guards, hide):
        packer.guard(record)
        columns = columns or list(record)
        chunk.append(list(record.values()))
        if len(chunk) >= wire_json.ROWS_PER_PIECE:
            _write_rows(chunk, rows)
    _write_rows(chunk, rows)
    return columns


def _write_rows(chunk: list[list[Any]], rows: IO[bytes]) -> None:
    """The rows of ``chunk`` after those written, comma separated; the chunk emptied."""
    if chunk:
        rows.write((b"," if rows.tell() else b"") + wire_json.inert(json_text.dumps(chunk))[1:-1])
        chunk.clear()


def _table_pieces(columns: list[str], rows: IO[bytes]) -> Iterator[bytes]:
    """The guards' table, as :func:`~symdebug.renderers.wire_json.inert_pieces` writes one."""
    head = wire_json.inert(json_text.dumps(columns))
    yield wire_json.TABLE_START + head + wire_json.TABLE_ROWS_START
    rows.seek(0)
    yield from iter(lambda: rows.read(_READ), b"")
    yield wire_json.TABLE_END

r"""A wire document's JSON, inert inside HTML, written a piece at a time.

A large session's document is hundreds of megabytes of JSON: written whole, the page holds
the document, its bytes and their escaped copy at once.  Here each top-level value, and each
chunk of a table's rows, is written and let go in turn, so the bytes of one piece are alive
at a time and the document shrinks as it is written.  The pieces join into exactly the bytes
that one ``dumps`` of the whole document writes (orjson's compact form).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from symdebug.model import json_text
from symdebug.model.wire_format import TABLE_COLUMNS, TABLE_ROWS

#: Markup characters as unicode escapes, replaced in orjson's UTF-8 bytes (the line and
#: paragraph separators are JSON-legal but end a JavaScript line in older engines).
_ESCAPES = (
    (b"<", b"\\u003c"),
    (b">", b"\\u003e"),
    (b"&", b"\\u0026"),
    ("\u2028".encode(), b"\\u2028"),
    ("\u2029".encode(), b"\\u2029"),
)
#: Rows of a table written in one piece: enough that each ``dumps`` call is worth its cost.
ROWS_PER_PIECE = 2048
#: A table's JSON up to its columns, between its columns and its rows, and after its rows.
TABLE_START = b"{" + json_text.dumps(TABLE_COLUMNS) + b":"
TABLE_ROWS_START = b"," + json_text.dumps(TABLE_ROWS) + b":["
TABLE_END = b"]}"


def inert(data: bytes) -> bytes:
    """JSON bytes with every markup character as a unicode escape (one replace each)."""
    for char, escaped in _ESCAPES:
        data = data.replace(char, escaped)
    return data


def inert_pieces(
    wire: dict[str, Any], written: Mapping[str, Iterable[bytes]] | None = None
) -> Iterator[bytes]:
    """The inert JSON of a wire document, a piece at a time, emptying its session as it goes.

    Parameters
    ----------
    wire
        :func:`~symdebug.renderers.document.wire_document` output, no one else's: each of
        its session's values is taken out once written, each table row once written.
    written
        Session values given as their inert JSON already, in pieces (a big session's
        guards, written a guard at a time): they replace the session's own values.

    Yields
    ------
    bytes
        Pieces whose concatenation is the document's inert JSON.
    """
    yield b"{"
    for number, (key, value) in enumerate(wire.items()):
        yield (b"," if number else b"") + inert(json_text.dumps(key)) + b":"
        if key == "session" and isinstance(value, dict):
            yield from _session_pieces(value, frozenset(wire.get("tables", ())), written or {})
        else:
            yield inert(json_text.dumps(value))
    yield b"}"


def _session_pieces(
    session: dict[str, Any], tables: frozenset[str], written: Mapping[str, Iterable[bytes]]
) -> Iterator[bytes]:
    """The session object, each value removed from it once its bytes are made."""
    yield b"{"
    for number, key in enumerate(list(session)):
        value = session.pop(key)
        yield (b"," if number else b"") + inert(json_text.dumps(key)) + b":"
        if key in written:
            yield from written[key]
        elif key in tables and _is_table(value):
            yield from _table_pieces(value)
        else:
            yield inert(json_text.dumps(value))
    yield b"}"


def _is_table(value: Any) -> bool:
    return isinstance(value, dict) and list(value) == [TABLE_COLUMNS, TABLE_ROWS]


def _table_pieces(table: dict[str, Any]) -> Iterator[bytes]:
    """``{"columns": [...], "rows": [...]}``, the rows a chunk at a time (each let go)."""
    rows: list[Any] = table[TABLE_ROWS]
    yield TABLE_START + inert(json_text.dumps(table[TABLE_COLUMNS])) + TABLE_ROWS_START
    for start in range(0, len(rows), ROWS_PER_PIECE):
        end = min(start + ROWS_PER_PIECE, len(rows))
        chunk = inert(json_text.dumps(rows[start:end]))
        rows[start:end] = [None] * (end - start)
        yield (b"," if start else b"") + chunk[1:-1]
    yield TABLE_END

"""One JSON object read member by member from a file, the arrays asked for item by item.

A saved session of a million guards is a document of some 3 GB: parsed whole, the parser's
copy and the dict tree take about 17 KiB a guard.  This reads the text in chunks and decodes
one member, or one item of a streamed array, at a time with the standard library's decoder
(in C, as fast as orjson on records of this size), so one item at most is held as parsed JSON.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Container, Iterator
from typing import Any, Protocol

from symdebug.model.json_depth import too_deep

#: Characters read at a time (more when one value is longer).
CHUNK = 1 << 20
#: How near the end of the text read so far a decoding error may be and still be text not
#: read yet (``tru`` of ``true``, ``1.`` of ``1.5``, half a ``\\u`` escape).
_NEAR_END = 16
_SPACE = " \t\n\r"
_DECODER = json.JSONDecoder()


class TextSource(Protocol):
    """Where the text comes from: a text file, or anything that reads as one."""

    def read(self, size: int = -1, /) -> str:
        """Up to ``size`` characters (all that are left when negative); "" at the end."""
        ...


class NotJsonError(ValueError):
    """The text is not JSON; the message says what was expected, at which character."""


class TooDeepError(ValueError):
    """A value nests deeper than allowed; the message is its JSON path."""


class ObjectStream:
    """The members of the JSON object a text file holds, in order.

    Parameters
    ----------
    source
        The file, opened as text (``newline=""``: JSON whitespace is kept as it is).
    max_depth
        The deepest nesting allowed, counting the object itself: a value the decoder
        cannot read for its depth is named by the path of its container past this.
    """

    def __init__(self, source: TextSource, max_depth: int) -> None:
        self._source = source
        self._max_depth = max_depth
        self._text = ""
        self._at = 0  # the next character of _text to read
        self._dropped = 0  # characters before _text (read and let go)
        self._ended = False

    def peek(self) -> str:
        """The next character but whitespace ("" at the end of the file), not taken."""
        while True:
            text, at = self._text, self._at
            while at < len(text) and text[at] in _SPACE:  # little: between members and items
                at += 1
            self._at = at
            if self._at < len(self._text) or self._ended:
                return self._text[self._at : self._at + 1]
            self._read_more()

    def rest(self) -> str:
        """All the text not read yet (a document that is no object is read whole)."""
        return self._text[self._at :] + self._source.read()

    def members(self, streamed: Container[str]) -> Iterator[tuple[str, int | None, Any]]:
        """``(key, None, value)`` for each member; a ``streamed`` key's array item by item.

        Such an array gives ``(key, None, [])``, then ``(key, index, item)`` for each item.

        Raises
        ------
        NotJsonError, TooDeepError
            When the text is not JSON, or nests deeper than ``max_depth``.
        """
        self._take("{")
        if self.peek() == "}":
            self._at += 1
        else:
            yield from self._pairs(streamed)
        if self.peek():
            raise self._fault("Extra data")

    def _pairs(self, streamed: Container[str]) -> Iterator[tuple[str, int | None, Any]]:
        seen: set[str] = set()
        while True:
            if self.peek() != '"':
                raise self._fault("Expecting property name enclosed in double quotes")
            key = self._value(1, "(document)")
            if key in seen:  # a streamed array twice would be read as one: never last-wins
                raise self._fault(f"the member {key!r} twice")
            seen.add(key)
            self._take(":")
            if key in streamed and self.peek() == "[":
                self._at += 1
                yield key, None, []
                yield from self._items(key)
            else:
                yield key, None, self._value(1, key)
            if self._take(",}") == "}":
                return

    def _items(self, key: str) -> Iterator[tuple[str, int | None, Any]]:
        if self.peek() == "]":
            self._at += 1
            return
        index = 0
        while True:
            yield key, index, self._value(2, f"{key}[{index}]")
            index += 1
            if self._take(",]") == "]":
                return

    def _value(self, depth: int, path: str) -> Any:
        """The value next, ``depth`` containers down at ``path``; more text read as needed."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self._text, self._at)
            except json.JSONDecodeError as error:
                if self._ended or not self._unfinished(error):
                    raise self._fault(error.msg, error.pos) from None
            except RecursionError:
                raise self._too_deep(depth, path) from None
            except ValueError:  # Python's limit on an int's digits (sys.get_int_max_str_digits)
                raise self._too_long_number(path) from None
            else:
                if end < len(self._text) or self._ended:  # a number may go on past the end
                    self._at = end
                    return value
            self._read_more()

    def _too_long_number(self, path: str) -> NotJsonError:
        """The error of a number past Python's digits limit, with its member's key if any."""
        limit = sys.get_int_max_str_digits()
        pattern = rf'(?:"(?P<key>[^"\\]{{1,200}})"\s*:\s*)?-?\d{{{limit + 1}}}'
        found = re.search(pattern, self._text[self._at :])
        key = found["key"] if found is not None and found["key"] else None
        where = f"{path}.{key}" if key else path
        return NotJsonError(f"{where}: a number of more than {limit} digits")

    def _too_deep(self, depth: int, path: str) -> TooDeepError:
        """The error of the value next: the path of its first container nested too deep."""
        inside = too_deep(self._text[self._at :], self._max_depth - depth) or "(document)"
        if inside == "(document)":
            return TooDeepError(path)
        return TooDeepError(path + inside if inside.startswith("[") else f"{path}.{inside}")

    def _unfinished(self, error: json.JSONDecodeError) -> bool:
        """Whether the error may be of a value whose end is not read yet."""
        near_end = error.pos >= len(self._text) - _NEAR_END
        return near_end or error.msg.startswith("Unterminated string")

    def _take(self, allowed: str) -> str:
        mark = self.peek()
        if not mark or mark not in allowed:
            raise self._fault(f"Expecting {' or '.join(map(repr, allowed))}")
        self._at += 1
        return mark

    def _fault(self, what: str, at: int | None = None) -> NotJsonError:
        at = self._at if at is None else at
        return NotJsonError(f"{what}: character {self._dropped + at}")

    def _read_more(self) -> None:
        """Let go of the text read, and read at least as much again as is left of a value."""
        chunk = self._source.read(max(CHUNK, len(self._text) - self._at))
        if not chunk:
            self._ended = True
            return
        self._dropped += self._at
        self._text = self._text[self._at :] + chunk
        self._at = 0

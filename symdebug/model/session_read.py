"""A saved session read as it streams in: each record checked and built as it is reached.

The document is read member by member (:mod:`.json_stream`), its arrays of records item by
item; each record is checked against its ``$defs`` entry by the validator of the document's
version (:mod:`.session_check`) and built at once (:class:`.facts_reader.FactsReader`).  So a
session of a million guards loads in a few KiB a guard, not the 17 KiB of its parsed tree,
and each error names the JSON path a check of the whole document names.
"""

from __future__ import annotations

import functools
import io
from typing import IO, Any

from symdebug.model import session_check
from symdebug.model.facts_reader import RECORDS, FactsReader
from symdebug.model.json_stream import NotJsonError, ObjectStream, TextSource, TooDeepError
from symdebug.model.session_format import json_schema
from symdebug.model.types import Facts
from symdebug.model.validate import Validator


def read_facts(source: str | bytes | IO[bytes]) -> Facts:
    """The facts of a session document: its text, or a binary file of it.

    Raises
    ------
    ValueError
        ``not a symdebug session: ...`` for text that is not a JSON object, ``not a valid
        symdebug session document: guards[3].expr: ...`` for one the schema refuses.
    """
    stream = ObjectStream(_text_of(source), session_check.deepest())
    records = _CheckedRecords()
    try:
        if stream.peek() != "{":
            session_check.parse(stream.rest())  # says why: not JSON, or not an object
        for key, index, value in stream.members(RECORDS):
            records.add(key, index, value)
    except TooDeepError as error:
        raise ValueError(f"not a symdebug session: {error}: nested too deep") from None
    except (NotJsonError, UnicodeDecodeError) as error:
        raise ValueError(f"not a symdebug session: not JSON ({error})") from None
    return records.facts()


class _CheckedRecords:
    """Each record checked, then built; the document's other members kept as they are."""

    def __init__(self) -> None:
        self.rest: dict[str, Any] = {}  # arrays of records empty: their records are built
        self.validator: Validator | None = None  # known once schema_version is read
        self.waiting: list[tuple[str, int, Any]] = []  # records read before schema_version
        self.reader = FactsReader()
        self.compile_ids: dict[str, int] = {}

    def add(self, key: str, index: int | None, value: Any) -> None:
        """A member (``index`` None), or record ``index`` of the array ``key``."""
        if index is not None:
            self.waiting.append((key, index, value))
        else:
            self.rest[key] = value
            if key == "schema_version":
                self.validator = session_check.validator_of(self.rest)
        if self.validator is not None:
            self._build_waiting(self.validator)

    def _build_waiting(self, validator: Validator) -> None:
        for key, index, value in self.waiting:
            _checked(validator, value, _definitions()[key], f"{key}[{index}]")
            if key == "compiles":
                self._unique_compile(value["compile_id"], index)
            self.reader.add(key, value)
        self.waiting.clear()

    def _unique_compile(self, compile_id: str, index: int) -> None:
        """A compile id names one compile: a repeat would be counted, diffed, twice."""
        first = self.compile_ids.setdefault(compile_id, index)
        if first != index:
            raise ValueError(
                f"not a valid symdebug session document: compiles[{index}].compile_id: "
                f"{compile_id!r} repeats compiles[{first}]"
            )

    def facts(self) -> Facts:
        """The facts, once the members but the records are checked too."""
        validator = self.validator or session_check.validator_of(self.rest)  # raises
        _checked(validator, self.rest)
        try:
            session_check.check_guard_ids(self.reader.guards, self.reader.later)
        except ValueError as error:
            raise ValueError(f"not a valid symdebug session document: {error}") from None
        return self.reader.facts(self.rest)


def _checked(
    validator: Validator, value: Any, definition: str | None = None, path: str = ""
) -> None:
    try:
        validator.check(value, definition, path)
    except ValueError as error:
        raise ValueError(f"not a valid symdebug session document: {error}") from None


@functools.cache
def _definitions() -> dict[str, str]:
    """The ``$defs`` name of each array of records' items (``guards``: ``Guard``)."""
    properties = json_schema()["properties"]
    return {key: str(properties[key]["items"]["$ref"]).rsplit("/", 1)[-1] for key in RECORDS}


class _Text:
    """Text read in pieces, as from a file (a copy into ``io.StringIO`` would be 4x its size)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._at = 0

    def read(self, size: int = -1, /) -> str:
        end = len(self._text) if size < 0 else self._at + size
        piece, self._at = self._text[self._at : end], min(end, len(self._text))
        return piece


def _text_of(source: str | bytes | IO[bytes]) -> TextSource:
    if isinstance(source, str):
        return _Text(source)
    binary = io.BytesIO(source) if isinstance(source, bytes) else source
    # surrogatepass: a lone surrogate in UTF-8, as the standard library's JSON reads it
    return io.TextIOWrapper(binary, encoding="utf-8-sig", errors="surrogatepass", newline="")

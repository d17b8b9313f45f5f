"""The session as the viewer receives it: one wire format for report, notebook and widget.

The HTML report, the notebook output (the JupyterLab MIME bundle) and the widget send the same.

The wire holds the session document of :func:`~symdebug.model.serialize.facts_to_dict`
(every field, ``null`` and ``false`` included), packed two ways that divide the size of a
large session: each distinct stack frame of the guards, and each distinct fix and fix text of
any record, is stored once (records refer to them by index), recompile reasons are chains
of shared tails (one frame's recompiles repeat their predecessors' reasons), and each list
of records is a table (its keys once, then one row of values per record).  The viewer's ``unpack``
(``extension/src/model.ts``) and :func:`unpack` here restore the document exactly.  Both sides
pack by the constants of :mod:`symdebug.model.wire_format` (``extension/src/wire.ts`` is
generated from it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from symdebug.model import json_text
from symdebug.model.serialize import facts_to_dict
from symdebug.model.types import Facts
from symdebug.model.wire_format import (
    FIX_KEYS,
    FRAME_KEYS,
    FRAME_STACKS,
    PACKING,
    PACKING_FIELD,
    TABLE_COLUMNS,
    TABLE_ROWS,
    WITH_FIXES,
)
from symdebug.renderers.compared_values import HIDDEN, compared_strings, hide_compared
from symdebug.renderers.text_lists import pack_text_lists, unpack_text_lists

#: The guards' stacks: packed a guard at a time, before the rest of the session.
_GUARD_STACKS = FRAME_STACKS["guards"]
#: What a redacted text reads, as a hidden compared string does.
_REDACTED = HIDDEN


def wire_document(facts: Facts, *, redact: bool = False) -> dict[str, Any]:
    """The session as the viewer receives it, packed.

    Parameters
    ----------
    facts
        The session's facts.
    redact
        Leave out source lines, directories, graph dumps and kernel code (shared reports).

    Returns
    -------
    dict
        ``{"packed", "redacted", "frames", "fixes", "fix_objects", "text_lists", "tables",
        "session"}``: the session document with guard stacks, fix texts and fixes as
        indices, recompile reasons as chains and record lists as tables.
    """
    document = facts_to_dict(facts)
    return pack(redacted_owned(document, facts) if redact else document, redact=redact)


def pack(document: dict[str, Any], *, redact: bool = False) -> dict[str, Any]:
    """Pack a session document (modified in place): frames and fixes once, records as tables.

    Parameters
    ----------
    document
        :func:`~symdebug.model.serialize.facts_to_dict` output (possibly redacted).
    redact
        Whether the document was redacted (told to the viewer).

    Returns
    -------
    dict
        The wire document; :func:`unpack` restores ``document``.
    """
    packer = Packer()
    for guard in document["guards"]:
        packer.guard(guard)
    return packer.wire(document, redact=redact)


class Packer:
    """The wire's shared frames and fixes, indexed as records are packed, the guards first.

    :func:`pack` packs a whole document; a big session's report packs its guards one at a
    time (:mod:`symdebug.renderers.wire_stream`), then the rest: the same indices either way.
    """

    def __init__(self) -> None:
        self.frames: dict[tuple[Any, ...], int] = {}
        self.fixes: dict[str, int] = {}
        self.fix_objects: dict[bytes, int] = {}

    def guard(self, guard: dict[str, Any]) -> None:
        """A guard's frames and fixes as indices (in place), in the order of the guards."""
        frames = self.frames
        for stack in _GUARD_STACKS:
            guard[stack] = [_index(frames, tuple(f[k] for k in FRAME_KEYS)) for f in guard[stack]]
        self._fixes(guard)

    def _fixes(self, record: dict[str, Any]) -> None:
        if isinstance(record.get("fix"), str):
            record["fix"] = _index(self.fixes, record["fix"])
        record["fixes"] = [_index(self.fix_objects, _fix_key(fix)) for fix in record["fixes"]]

    def wire(
        self, document: dict[str, Any], *, redact: bool, streamed: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """The wire of ``document``, its guards packed already (or ``streamed``, a table each)."""
        others = (key for key in WITH_FIXES if key != "guards")
        for record in (r for key in others for r in document.get(key, [])):
            self._fixes(record)
        text_lists = pack_text_lists(document)
        tables = [k for k, v in document.items() if k in streamed or _is_records(v)]
        for key in (k for k in tables if k not in streamed):
            document[key] = _table(document[key])
        return {
            PACKING_FIELD: PACKING,
            "redacted": redact,
            "frames": [list(frame) for frame in self.frames],
            "fixes": list(self.fixes),
            "fix_objects": [json_text.loads(key) for key in self.fix_objects],
            "text_lists": text_lists,
            "tables": tables,
            "session": document,
        }


def _fix_key(fix: dict[str, Any]) -> bytes:
    """A fix's identity on the wire: all of it (two guards share one fix when equal)."""
    return json_text.dumps(fix, sort_keys=True)


def _index(seen: dict[Any, int], key: Any) -> int:
    """The index of ``key`` in ``seen`` (insertion ordered), adding it if new."""
    return seen.setdefault(key, len(seen))


def _is_records(value: Any) -> bool:
    """A non-empty list of objects that all have the same keys, in the same order."""
    if not isinstance(value, list) or not value or not isinstance(value[0], dict):
        return False
    keys = list(value[0])
    return all(isinstance(item, dict) and list(item) == keys for item in value)


def _table(records: list[dict[str, Any]]) -> dict[str, Any]:
    columns = list(records[0])
    return {TABLE_COLUMNS: columns, TABLE_ROWS: [list(record.values()) for record in records]}


def unpack(wire: dict[str, Any]) -> dict[str, Any]:
    """The session document inside a wire document (a copy; the wire is left as it was).

    Parameters
    ----------
    wire
        :func:`wire_document` output, or a plain session document (returned as it is).

    Returns
    -------
    dict
        The session document, as :func:`~symdebug.model.serialize.facts_to_dict` wrote it.
    """
    if PACKING_FIELD not in wire:
        return wire
    document: dict[str, Any] = json_text.loads(json_text.dumps(wire["session"]))
    for key in wire["tables"]:
        table = document[key]
        columns = table[TABLE_COLUMNS]
        document[key] = [dict(zip(columns, row, strict=True)) for row in table[TABLE_ROWS]]
    frames = [dict(zip(FRAME_KEYS, frame, strict=True)) for frame in wire["frames"]]
    for key, stacks in FRAME_STACKS.items():
        for record in document.get(key, []):
            for stack in stacks:
                record[stack] = [dict(frames[i]) for i in record[stack]]
    for record in (r for key in WITH_FIXES for r in document.get(key, [])):
        if isinstance(record.get("fix"), int):
            record["fix"] = wire["fixes"][record["fix"]]
        record["fixes"] = [_unsorted(wire["fix_objects"][i]) for i in record["fixes"]]
    if "text_lists" in wire:  # packing 5 and later
        unpack_text_lists(document, wire["text_lists"])
    return document


def _unsorted(fix: dict[str, Any]) -> dict[str, Any]:
    """A wire fix with its keys in the document's order (the wire sorted them)."""
    return {key: fix[key] for key in FIX_KEYS}


# ---------------------------------------------------------------- redaction


def _strip_comment(reason: str) -> str:
    return reason.split("  #", 1)[0].split(" #", 1)[0]


def _scrub_frames(value: Any) -> None:
    """Every frame-like dict: keep the file's base name and line number, drop the code."""
    if isinstance(value, dict):
        if "filename" in value and isinstance(value["filename"], str):
            value["filename"] = Path(value["filename"]).name
            for key in ("line", "code"):
                if isinstance(value.get(key), str):
                    value[key] = _REDACTED
        for item in value.values():
            _scrub_frames(item)
    elif isinstance(value, list):
        for item in value:
            _scrub_frames(item)


def _redact_records(clean: dict[str, Any]) -> None:
    """Comments of checks, graph dumps, kernel code and range locations."""
    for compile_ in clean["compiles"]:
        compile_["graphs"] = []
        compile_["recompile_reasons"] = [_strip_comment(r) for r in compile_["recompile_reasons"]]
        # Torch's free text (exceptions, skip reasons) quotes code and paths: not shared.
        compile_["fail_reason"] = _REDACTED if compile_["fail_reason"] else None
        compile_["restart_reasons"] = [_REDACTED for _ in compile_["restart_reasons"]]
        for check in compile_.get("shape_checks", []):
            check["note"] = ""
        for check in compile_.get("value_checks", []):  # a string compared can be anything
            check["note"] = ""
            check["code"] = _redacted_value(check["code"])
    for recompile in clean["recompiles"]:
        recompile["reasons"] = [_strip_comment(r) for r in recompile["reasons"]]
    for kernel in clean.get("kernels", []):
        kernel["source"] = _REDACTED
    for symbol in clean["symbols"]:
        symbol["range_locs"] = dict.fromkeys(symbol.get("range_locs", {}), _REDACTED)
    for explanation in clean.get("explanations", []):
        for step in explanation["steps"]:
            _redact_step(step)
    for graph_break in clean.get("graph_breaks", []):
        graph_break["explanation"] = _REDACTED


def _redact_diffs(clean: dict[str, Any]) -> None:
    """Each fix's diff: a rewrite's diff quotes the user's code."""
    for fix in (f for key in WITH_FIXES for r in clean.get(key, []) for f in r["fixes"]):
        if fix.get("diff"):
            fix["diff"] = _REDACTED


def _redact_step(step: dict[str, Any]) -> None:
    """A step's text as its scrubbed frame says it; a recompile's check without comments."""
    if step.get("frame") is not None:
        step["text"] = f"{step['frame']['filename']}:{step['frame']['lineno']}"
    elif step["kind"] == "recompile":
        step["text"] = _strip_comment(step["text"])


def _redacted_value(code: str) -> str:
    """``L['mode'] == 'secret'`` -> ``L['mode'] == (redacted)``; ``is None`` and bools stay."""
    source, equals, value = code.rpartition(" == ")
    return f"{source} == {_REDACTED}" if equals and value not in ("True", "False") else code


#: An absolute path in free text (``/home/me/x.py``, ``C:\\work\\x.py``): its directories go.
_PATH = re.compile(r"(?<![\w)\].])(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'\"()\[\],;]+){2,}")


def _without_paths(value: Any) -> Any:
    """Every string of the document with each absolute path cut to its file's name."""
    if isinstance(value, str):
        return _PATH.sub(lambda m: m[0].replace("\\", "/").rsplit("/", 1)[-1], value)
    if isinstance(value, list):
        return [_without_paths(item) for item in value]
    if isinstance(value, dict):
        return {key: _without_paths(item) for key, item in value.items()}
    return value


def redacted_text(text: str) -> str:
    """One line of torch's or the user's text as a redacted view may show it.

    Its first line only (torch appends stack traces), without a comment (the source line),
    compared strings or directories.
    """
    line = _strip_comment(text.split("\n", 1)[0]).rstrip()
    return str(_without_paths(hide_compared(line, compared_strings(line))))


def redacted_json(facts: Facts) -> bytes:
    """The session document of ``facts`` as JSON, redacted (see :func:`redacted`)."""
    return json_text.dumps(redacted_owned(facts_to_dict(facts), facts))


def redacted(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of a session document without source lines, directories, graph dumps and code.

    Parameters
    ----------
    document
        :func:`~symdebug.model.serialize.facts_to_dict` output.

    Returns
    -------
    dict
        The redacted copy (still a valid session document).
    """
    return _redacted_copy(_copy(document))


def redacted_owned(
    document: dict[str, Any], shared: object, hidden: set[str] | None = None
) -> dict[str, Any]:
    """:func:`redacted`, made a record at a time in the document itself.

    The document's lists of records are its own but for ``shared``'s attributes (a list of
    the facts' that the document holds as it is): each record is replaced by its copy as it
    is made, so a second copy of a large session is never whole (a million guards).

    Parameters
    ----------
    document
        :func:`~symdebug.model.serialize.facts_to_dict` output, changed in place.
    shared
        What the document was made from (its lists are copied whole).
    hidden
        The compared strings to hide, when the document is not the whole session (its
        guards are redacted apart: :func:`redacted_guard`); by default, the document's.

    Returns
    -------
    dict
        ``document``, redacted as :func:`redacted` would have copied it.
    """
    for key, value in document.items():
        if isinstance(value, list) and value is not getattr(shared, key, None):
            _each_replaced(value, _copy)
        else:
            document[key] = _copy(value)
    return _redacted_copy(document, hidden)


def _copy(value: Any) -> Any:
    """A copy as the document's JSON reads back (tuples as lists), sharing nothing."""
    return json_text.loads(json_text.dumps(value))


def _each_replaced(items: list[Any], change: Callable[[Any], Any]) -> None:
    """Each item replaced by what ``change`` makes of it, the old one let go at once."""
    for index, item in enumerate(items):
        items[index] = change(item)


def redacted_guard(guard: dict[str, Any], hide: Callable[[Any], Any]) -> dict[str, Any]:
    """One guard of a session document, as :func:`redacted` redacts it (changed in place).

    Parameters
    ----------
    guard
        The guard's dict, no one else's (a copy).
    hide
        :func:`~symdebug.renderers.compared_values.hider` of the whole session's compared
        strings (``compared_strings`` of every record, this guard's included).

    Returns
    -------
    dict
        The redacted guard.
    """
    hide(guard)
    _scrub_frames(guard)
    _redact_diffs({"guards": [guard]})
    clean: dict[str, Any] = _without_paths(guard)
    return clean


def _redacted_copy(clean: dict[str, Any], hidden: set[str] | None = None) -> dict[str, Any]:
    """A copy of a document (shared with no one) redacted in place, a record at a time."""
    # Before the paths go: a compared string can hold one, and source lines still show theirs.
    hide_compared(clean, compared_strings(clean) if hidden is None else hidden)
    _scrub_frames(clean)
    _redact_records(clean)
    _redact_diffs(clean)
    for key, value in clean.items():
        if isinstance(value, list):
            _each_replaced(value, _without_paths)
        else:
            clean[key] = _without_paths(value)
    clean["problem_examples"] = []
    clean["source"] = _REDACTED
    return clean

"""Parse torch's recompile reasons into structured checks.

Torch words each reason as ``"<failed compile id>: <check>"``; the ``recompile_reasons``
artifact holds a raw string for one reason and a JSON list for several.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_PREFIX = re.compile(r"^(?P<entry>!?\d+/\d+(?:/\d+)?): (?P<text>.*)$", re.DOTALL)
_SIZE = re.compile(
    r"tensor '(?P<tensor>.+?)' (?P<what>size|stride) mismatch at index (?P<index>\d+)\. "
    r"expected (?P<expected>-?\d+), actual (?P<actual>-?\d+)"
)
_EQUALS = re.compile(r"^(?P<source>[\w.\[\]'\"()]+) == (?P<value>-?\d+)\s*(?:#|$)")
_USER_LOC = re.compile(
    r"# (?P<file>[^#]+?):(?P<line>\d+) in (?P<fn>[\w<>]+)(?: \((?P<fw>[^)]*)\))?"
)


@dataclass(slots=True)
class Reason:
    """One reason: the entry that failed and what its check said."""

    entry: str | None
    text: str
    kind: str
    tensor: str | None = None
    index: int | None = None
    expected: int | None = None
    actual: int | None = None
    source: str | None = None
    user_file: str | None = None
    user_line: int | None = None
    user_fn: str | None = None
    framework_loc: str | None = None

    @property
    def code(self) -> str:
        """The check itself, without torch's trailing comments."""
        return self.text.split("  #", 1)[0].split(" #", 1)[0].strip()


def split_payload(payload: str | None) -> list[str]:
    """The reasons in a ``recompile_reasons`` payload (raw string or JSON list)."""
    if not payload:
        return []
    text = payload.strip()
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            return [text]
        if isinstance(items, list):
            return [str(item) for item in items]
    return [text]


def _kind(text: str) -> str:
    if "duck sizing" in text:
        return "duck_sizing"
    if "0/1 specialization" in text:
        return "zero_one"
    if _SIZE.search(text):
        return "tensor_mismatch"
    if _EQUALS.search(text) and "size()" not in text.split("#", maxsplit=1)[0]:
        return "equals"
    if "size()" in text or "stride()" in text or "numel()" in text:
        return "shape_guard"
    return "other"


def parse_reason(raw: str) -> Reason:
    """Parse one reason string."""
    match = _PREFIX.match(raw.strip())
    entry, text = (match["entry"], match["text"]) if match else (None, raw.strip())
    reason = Reason(entry, text, _kind(text))
    if (size := _SIZE.search(text)) is not None:
        reason.tensor, reason.index = size["tensor"], int(size["index"])
        reason.expected, reason.actual = int(size["expected"]), int(size["actual"])
        reason.kind = "tensor_mismatch" if size["what"] == "size" else "stride_mismatch"
    if (equals := _EQUALS.search(text)) is not None:
        reason.source = equals["source"]
    if (loc := _USER_LOC.search(text)) is not None:
        reason.user_file, reason.user_line = loc["file"].strip(), int(loc["line"])
        reason.user_fn, reason.framework_loc = loc["fn"], loc["fw"]
    return reason


def first_reason_line(reasons: list[str]) -> str:
    """The first reason's first line, without torch's alignment padding."""
    if not reasons or not reasons[0]:
        return "(no reason recorded)"
    return re.sub(r"\s{3,}", "  ", reasons[0].splitlines()[0])

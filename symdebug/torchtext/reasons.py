"""Parse torch's recompile reasons into structured checks.

Torch words each reason as ``"<failed compile id>: <check>"``; the ``recompile_reasons``
artifact holds a raw string for one reason and a JSON list for several.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

from symdebug._torch.releases import RELEASES
from symdebug.model.types import Frame
from symdebug.torchtext.frames import traceback_frames
from symdebug.torchtext.state_reasons import state_change

_PREFIX = re.compile(r"^(?P<entry>!?\d+/\d+(?:/\d+)?): (?P<text>.*)$", re.DOTALL)
_SIZE = re.compile(
    r"tensor '(?P<tensor>.+?)' (?P<what>size|stride) mismatch at index (?P<index>\d+)\. "
    r"expected (?P<expected>-?\d+), actual (?P<actual>-?\d+)"
)
#: An int's or float's value check (``n == 3``, ``temperature == 0.7``, ``eps == 1e-05``).
_EQUALS = re.compile(
    r"^(?P<source>[\w.\[\]'\"()]+) == (?P<value>-?\d+(?:\.\d*)?(?:e[-+]?\d+)?|-?inf|nan)"
    r"\s*(?:#|$)"
)
#: A list's or tuple's length (``len(xs) == 2``; ``not xs`` when it was empty), or a dict's
#: (its manager words a failure ``len(d) != 1``: see :attr:`Reason.container`).
_LENGTH = re.compile(r"^len\((?P<subject>.+?)\) (?P<op>==|!=) (?P<value>\d+)\s*(?:#|$)")
_EMPTY = re.compile(r"^not (?P<subject>[\w.\[\]'\"]+)\s*(?:#|$)")
#: Checks on what an object is rather than on a size: its identity (``ID_MATCH``), its type
#: (``TYPE_MATCH``), a tensor where another type was, a function where something else was.
_IDENTITY = (
    re.compile(r"___check_(?P<what>obj|type)_id\((?P<subject>[^,]+), -?\d+\)"),
    re.compile(r"expected type of '(?P<subject>[^']+)' to be a (?P<what>tensor) type"),
    re.compile(r"(?P<what>\w+)GuardAccessor: Not a function on (?P<subject>[\w.\[\]'\"]+)"),
    re.compile(r"^(?P<subject>[\w.\[\]'\"]+) is (?P<what>(?:not )?None)\s*(?:#|$)"),
    re.compile(
        r"^list\(dict\.(?P<what>keys)\((?P<subject>.+?)\)\)\[\d+\] == (?P<key>.+?)\s*(?:#|$)"
    ),
    # ``"labels" in batch`` compiled with the key there (``not ___dict_contains`` failed) or not.
    re.compile(
        r"^(?P<absent>not )?___dict_(?P<what>contains)\((?P<key>.+?), (?P<subject>[\w.\[\]'\"]+)\)"
    ),
    # A value the graph baked in: ``self.training == True``, ``mode == 'a'`` (ints: ``_EQUALS``).
    re.compile(
        r"^(?P<subject>[\w.\[\]'\"]+) (?P<what>==) (?P<key>True|False|'[^']*'|\"[^\"]*\")\s*(?:#|$)"
    ),
    # A tensor of another number of dims: no dynamic size covers it.
    re.compile(r"tensor '(?P<subject>[^']+)' (?P<what>rank) mismatch\. expected (?P<key>\d+)"),
)
_TYPE = re.compile(r"(?:type=|but found )<class '(?P<type>[^']+)'>")
#: Torch's note for people after a check (``(HINT: Dictionary d must contain key 'k'; ...)``),
#: as every release writes it: not the framework line that a ``(...)`` there otherwise is.
_HINT = re.compile("|".join({r.guard_text.hint_note for r in RELEASES} - {""}) or "(?!)")
_USER_STACK = "User stack trace:"
_USER_LOC = re.compile(
    r"# (?P<file>[^#]+?):(?P<line>\d+) in (?P<fn>[\w<>]+)(?: \((?P<fw>[^)]*)\))?"
)
#: A check torch names only a framework line for (``# (_inductor/lowering.py:5983 in
#: _adaptive_avg_pool2d)``): made while Inductor lowered a node, with no user line of its own.
_FRAMEWORK_ONLY = re.compile(r"#\s+\((?P<fw>[^()#]+:\d+ in [\w<>]+)\)\s*$")


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
    #: For an identity or type check: what it was about (``identity``, ``type``, ``tensor``,
    #: ``None``) and the type of the object the compile saw (``builtin_function_or_method``).
    identity: str | None = None
    type_name: str | None = None
    #: ``dict`` when the check is on a dict's length or keys (not a list's: no tensor of them).
    container: str | None = None
    #: For a dict key check: the key the compile saw, as torch printed it (``'ab'``); for a
    #: value check, the value (``True``, ``'a'``); for a rank check, the number of dims.
    key: str | None = None
    #: For a check that a dict holds a key: whether the compile saw the dict ``with`` it.
    key_was: str | None = None
    #: For a value check (``kind == "equals"``): the value the compile saw, as torch wrote it.
    value: str | None = None
    #: The stack torch prints under a check (``User stack trace:``, from 2.14), outermost
    #: first: it reaches the user's line when the check's own line is a library's.
    user_stack: list[Frame] = field(default_factory=list)

    @property
    def is_float(self) -> bool:
        """Whether a value check is on a float (``t == 1.0``): ints are written without a dot."""
        return self.value is not None and not self.value.lstrip("-").isdigit()

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
            # One string per text: a frame's recompiles repeat its earlier entries' reasons.
            return [sys.intern(str(item)) for item in items]
    return [text]


def _identity(text: str) -> re.Match[str] | None:
    return next((m for pattern in _IDENTITY if (m := pattern.search(text)) is not None), None)


def _kind(text: str) -> str:
    if (change := state_change(text)) is not None:
        return change.kind  # ``dtype``, ``global_state``, ...: a cause class of its own
    if _LENGTH.search(text) or _EMPTY.search(text):
        return "length"
    return "identity" if _identity(text) is not None else _size_kind(text)


#: ``_dynamo_dynamic_range mismatch: expected {_DimRange(dim=0, min=5, max=64)} ...``: from
#: torch 2.15 a call declaring another ``mark_dynamic(min=, max=)`` range recompiles.
MARK_RANGE = re.compile(
    r"_DimRange\(dim=(?P<dim>\d+), min=(?P<min>-?\d+|None), max=(?P<max>-?\d+|None)\)"
)


#: Kinds a reason's own words name: the first words found decide.
_WORDED = (
    ("_dynamo_dynamic_range mismatch", "mark_range"),
    ("duck sizing", "duck_sizing"),
    ("0/1 specialization", "zero_one"),
)


def _size_kind(text: str) -> str:
    worded = next((kind for words, kind in _WORDED if words in text), None)
    if worded is not None:
        return worded
    if _SIZE.search(text):
        return "tensor_mismatch"
    if _EQUALS.search(text) and "size()" not in text.split("#", maxsplit=1)[0]:
        return "equals"
    if "size()" in text or "stride()" in text or "numel()" in text:
        return "shape_guard"
    return "other"


#: Kinds of :mod:`symdebug.torchtext.state_reasons` about one tensor (not the global state).
_TENSOR_STATE = frozenset({"dtype", "requires_grad", "device", "dispatch_keys"})


#: Torch's checks of one tensor, in the order it makes them (``TensorCheck::check`` in
#: ``torch/csrc/dynamo/guards.cpp``): an entry that failed a later one matched the earlier.
_TENSOR_CHECK_ORDER = (
    ("dispatch_keys", "device"),
    ("dtype",),
    ("requires_grad",),
    ("tensor_mismatch",),
    ("stride_mismatch",),
)
_CHECK_RANK = {kind: rank for rank, kinds in enumerate(_TENSOR_CHECK_ORDER) for kind in kinds}
#: Reason kinds that are one of those checks of one tensor.
TENSOR_CHECKS = frozenset(_CHECK_RANK)


def closest_reason(reasons: list[Reason]) -> int:
    """The index of the reason whose entry the call matched best (torch's first on a tie).

    Each entry's reason is the first check it failed.  Where every reason is a check of the
    same tensor, the entry that failed a later check passed the earlier ones: a stride
    mismatch is closer than a dtype mismatch.  Otherwise torch's first (its newest entry).
    """
    tensors = {reason.tensor for reason in reasons}
    if len(tensors) != 1 or any(reason.kind not in _CHECK_RANK for reason in reasons):
        return 0
    ranks = [_CHECK_RANK[reason.kind] for reason in reasons]
    return ranks.index(max(ranks))


def reason_entry(raw: str) -> str | None:
    """The cache entry a reason names (``0/1``), the rest of it left unread."""
    match = _PREFIX.match(raw.strip())
    return match["entry"] if match else None


def parse_reason(raw: str) -> Reason:
    """Parse one reason string (torch's ``(HINT: ...)`` note for people left out)."""
    match = _PREFIX.match(_HINT.sub("", raw.strip()))
    entry, text = (match["entry"], match["text"]) if match else (None, raw.strip())
    reason = Reason(entry, text, _kind(text))
    if (size := _SIZE.search(text)) is not None:
        reason.tensor, reason.index = size["tensor"], int(size["index"])
        reason.expected, reason.actual = int(size["expected"]), int(size["actual"])
        reason.kind = "tensor_mismatch" if size["what"] == "size" else "stride_mismatch"
    if reason.kind in _TENSOR_STATE and (change := state_change(text)) is not None:
        reason.tensor = change.tensor
    if (equals := _EQUALS.search(text)) is not None:
        reason.source, reason.value = equals["source"], equals["value"]
    if reason.kind == "length":
        _read_length(reason)
    if reason.kind == "identity":
        _read_identity(reason)
    if (bare := _FRAMEWORK_ONLY.search(text)) is not None:
        reason.framework_loc = bare["fw"]
    elif (loc := _USER_LOC.search(text)) is not None:
        reason.user_file, reason.user_line = loc["file"].strip(), int(loc["line"])
        reason.user_fn, reason.framework_loc = loc["fn"], loc["fw"]
    if _USER_STACK in text:
        reason.user_stack = traceback_frames(text.partition(_USER_STACK)[2])
    return reason


def _read_length(reason: Reason) -> None:
    """The container a length check is about; ``!=`` is how a dict's manager words it."""
    length = _LENGTH.search(reason.text) or _EMPTY.search(reason.text)
    if length is not None:
        reason.source = length["subject"]
        reason.container = "dict" if length.groupdict().get("op") == "!=" else None


_IDENTITY_WHAT = {
    "obj": "identity",
    "type": "type",
    "tensor": "type",
    "FuncDefaults": "type",
    "Code": "type",
    "keys": "keys",
    "contains": "keys",
    "==": "value",
    "rank": "rank",
}


def _read_identity(reason: Reason) -> None:
    """The object an identity or type check is about, and what it checked."""
    match = _identity(reason.text)
    if match is None:
        return
    what = match["what"]
    subject = match["subject"].strip()
    reason.source = subject.removesuffix(".__code__")
    reason.identity = "None" if "None" in what else _IDENTITY_WHAT.get(what, "identity")
    if (found := _TYPE.search(reason.text)) is not None:
        reason.type_name = found["type"]
    if what in ("keys", "contains"):
        reason.container, reason.key = "dict", match["key"]
    if what in ("==", "rank"):
        reason.key = match["key"]
    if what == "contains":  # the check that failed is what the compile saw
        reason.key_was = "without" if match["absent"] else "with"


#: What changed, per kind of check whose wording is one template: ``{name}`` and ``{key}``.
_CHANGES = {
    "None": "{name} was None in one call and not in another",
    "value": "{name} has another value than the compile saw ({key})",
    "rank": "{name} has another number of dims than the compile saw ({key})",
}


def identity_change(reason: Reason) -> str:
    """What an identity or type check found changed, in words (``fn`` is another object)."""
    name = reason.source or "an input"
    seen = f" (a {reason.type_name} when compiled)" if reason.type_name else ""
    if reason.identity in _CHANGES:
        return _CHANGES[reason.identity].format(name=name, key=reason.key)
    if reason.identity == "type":
        return f"{name} has another type than the compile saw{seen}"
    if reason.identity == "keys" and reason.key_was is not None:
        return f"{name} has other keys than the compile saw (it was {reason.key_was} {reason.key})"
    if reason.identity == "keys":
        return f"{name} has other keys than the compile saw (it had the key {reason.key})"
    return f"{name} is another object than the compile saw{seen}"


def first_reason_line(reasons: list[str]) -> str:
    """The first reason's first line, without torch's alignment padding."""
    if not reasons or not reasons[0]:
        return "(no reason recorded)"
    return re.sub(r"\s{3,}", "  ", reasons[0].splitlines()[0])

"""Parse Dynamo's guard tree text (``dynamo_cpp_guards_str``) for the shape facts it holds.

The same text is in live capture and in ``TORCH_TRACE`` logs, so both get the static
dimensions of each tensor input (``size=[None, 4]``), the specialized ints
(``EQUALS_MATCH``) and the installed shape guards in source form (``LAMBDA_GUARD``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from symdebug.model.values import Source

_TENSOR = re.compile(
    r"TENSOR_MATCH: check_tensor\((?P<source>.+?), \w+, .*?size=\[(?P<size>[^\]]*)\], "
    r"stride=\[(?P<stride>[^\]]*)\]\)\s*(?:#\s*(?P<note>.*))?"
)
_EQUALS = re.compile(r"EQUALS_MATCH: (?P<source>.+?) == (?P<value>-?\d+)\s*(?:#\s*(?P<note>.*))?$")
_LENGTH = re.compile(r"LENGTH_CHECK: (?P<code>len\(.+?\) == \d+)\s*(?:#\s*(?P<note>.*))?$")
_MARKS = ("MATCH", "LAMBDA_GUARD", "DYNAMIC_MARKING", "GLOBAL_STATE", "LENGTH_CHECK")
_LAMBDA = re.compile(r"LAMBDA_GUARD: (?P<code>.+?)\s*(?:#\s*(?P<note>.*))?$")
_MARKED = re.compile(
    r"getattr\((?P<source>.+?), '_dynamo_(?:weak_)?dynamic_indices', set\(\)\)"
    r"\.issubset\(\{(?P<dims>[\d, ]+)\}\)"
)
#: A lambda guard holding one of these is not a shape guard.
_NOT_SHAPE = ("___", "utils_device", "torch._functorch", "__check")
# The literal part each pattern needs: a line without it cannot match, so it is not searched.
_GLOBAL_LITERAL = "GLOBAL_STATE:"
_MARKED_LITERAL = "dynamic_indices', set()).issubset({"
_TENSOR_LITERAL = "TENSOR_MATCH: check_tensor("
_LENGTH_LITERAL = "LENGTH_CHECK: len("
_EQUALS_LITERAL = "EQUALS_MATCH: "
_LAMBDA_LITERAL = "LAMBDA_GUARD: "


@dataclass(slots=True)
class TensorMatch:
    """One TENSOR_MATCH: the dims that are static (ints) or dynamic (None)."""

    source: str
    sizes: list[int | None]
    strides: list[int | None]
    note: str = ""


@dataclass(slots=True)
class ShapeLine:
    """An installed ShapeEnv guard in source form, with torch's note (user line, why)."""

    code: str
    note: str


@dataclass(slots=True)
class GuardTree:
    """The shape-relevant facts of one compile's guard tree."""

    tensors: list[TensorMatch] = field(default_factory=list)
    ints: dict[str, tuple[int, str]] = field(default_factory=dict)
    shape_lines: list[ShapeLine] = field(default_factory=list)
    marked_dynamic: list[str] = field(default_factory=list)
    global_state: dict[str, Any] = field(default_factory=dict)


def _dims(text: str) -> list[int | None]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    return [None if part == "None" else int(part) for part in parts]


def _global_state(line: str) -> dict[str, Any]:
    try:
        state = json.loads(line.split(" against ", 1)[1])
    except (IndexError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def _add_marked(tree: GuardTree, marked: re.Match[str]) -> None:
    dims = sorted(int(d) for d in marked["dims"].split(",") if d.strip())
    tree.marked_dynamic += [Source.size(marked["source"], d) for d in dims]


def _add_tensor(tree: GuardTree, match: re.Match[str]) -> None:
    tensor = TensorMatch(
        match["source"], _dims(match["size"]), _dims(match["stride"]), match["note"] or ""
    )
    tree.tensors.append(tensor)


def _add_lambda(tree: GuardTree, match: re.Match[str]) -> None:
    code = match["code"].strip()
    if not any(part in code for part in _NOT_SHAPE):
        tree.shape_lines.append(ShapeLine(code, (match["note"] or "").strip()))


def _add_line(tree: GuardTree, line: str) -> None:
    """Add what one line holds; each pattern is searched only where its literal part is."""
    if _GLOBAL_LITERAL in line:
        tree.global_state = _global_state(line)
    elif _MARKED_LITERAL in line and (marked := _MARKED.search(line)) is not None:
        _add_marked(tree, marked)
    elif _TENSOR_LITERAL in line and (match := _TENSOR.search(line)) is not None:
        _add_tensor(tree, match)
    elif _LENGTH_LITERAL in line and (match := _LENGTH.search(line)) is not None:
        tree.shape_lines.append(ShapeLine(match["code"], (match["note"] or "").strip()))
    elif _EQUALS_LITERAL in line and (match := _EQUALS.search(line)) is not None:
        tree.ints[match["source"]] = (int(match["value"]), match["note"] or "")
    elif _LAMBDA_LITERAL in line and (match := _LAMBDA.search(line)) is not None:
        _add_lambda(tree, match)


def parse_guard_tree(text: str | None) -> GuardTree:
    """Parse the tree; unknown lines are ignored.

    Only lines holding one of ``_MARKS`` are read (the test is spelled out, for speed).
    """
    tree = GuardTree()
    for line in (text or "").splitlines():
        if (
            "MATCH" in line
            or "LAMBDA_GUARD" in line
            or "DYNAMIC_MARKING" in line
            or "GLOBAL_STATE" in line
            or "LENGTH_CHECK" in line
        ):
            _add_line(tree, line)
    return tree

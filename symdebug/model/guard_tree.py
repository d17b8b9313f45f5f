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
_NOT_SHAPE = ("___", "utils_device", "torch._functorch", "__check")


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


def _add_line(tree: GuardTree, line: str) -> None:
    if "GLOBAL_STATE:" in line:
        tree.global_state = _global_state(line)
    elif (marked := _MARKED.search(line)) is not None:
        dims = sorted(int(d) for d in marked["dims"].split(",") if d.strip())
        tree.marked_dynamic += [f"{marked['source']}.size()[{d}]" for d in dims]
    elif (match := _TENSOR.search(line)) is not None:
        tree.tensors.append(
            TensorMatch(
                match["source"], _dims(match["size"]), _dims(match["stride"]), match["note"] or ""
            )
        )
    elif (match := _LENGTH.search(line)) is not None:
        tree.shape_lines.append(ShapeLine(match["code"], (match["note"] or "").strip()))
    elif (match := _EQUALS.search(line)) is not None:
        tree.ints[match["source"]] = (int(match["value"]), match["note"] or "")
    elif (match := _LAMBDA.search(line)) is not None:
        code = match["code"].strip()
        if not any(code.startswith(prefix) or prefix in code for prefix in _NOT_SHAPE):
            tree.shape_lines.append(ShapeLine(code, (match["note"] or "").strip()))


def parse_guard_tree(text: str | None) -> GuardTree:
    """Parse the tree; unknown lines are ignored."""
    tree = GuardTree()
    for line in (text or "").splitlines():
        if any(mark in line for mark in _MARKS):
            _add_line(tree, line)
    return tree

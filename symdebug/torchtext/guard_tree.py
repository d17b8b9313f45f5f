"""Parse Dynamo's guard tree text (``dynamo_cpp_guards_str``) for the shape facts it holds.

The same text is in live capture and in ``TORCH_TRACE`` logs, so both get the static
dimensions of each tensor input (``size=[None, 4]``), the specialized ints
(``EQUALS_MATCH``) and the installed shape guards in source form (``LAMBDA_GUARD``; an
aliasing check is an ``OBJECT_ALIASING`` leaf from torch 2.14 on).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from symdebug._torch.releases import RELEASES
from symdebug.model.types import InputDim, ShapeCheck
from symdebug.model.values import Source
from symdebug.torchtext.text_memo import TextMemo

_TENSOR = re.compile(
    r"TENSOR_MATCH: check_tensor\((?P<source>.+?), \w+, .*?size=\[(?P<size>[^\]]*)\], "
    r"stride=\[(?P<stride>[^\]]*)\]\)\s*(?:#\s*(?P<note>.*))?"
)
# What else ``check_tensor`` compares, as ``guards.py``'s ``get_tensor_guard_code_part``
# prints it: type, dispatch keys (thread modes applied), dtype, device index, requires_grad.
_TENSOR_PROPERTIES = re.compile(
    r"check_tensor\(.+?, (?P<type>[\w.]+), (?P<keys>DispatchKeySet\([^)]*\)), "
    r"(?P<dtype>[\w.]+), device=(?P<device>None|-?\d+), requires_grad=(?P<grad>True|False), "
    r"size="
)
# ``hasattr(L['x'], '_dynamo_dynamic_indices') == False``: a tensor marked since fails it.
_ABSENT_MARK = re.compile(r"hasattr\((?P<source>.+?), '(?P<mark>_dynamo_\w+_indices)'\) == False")
_EQUALS = re.compile(r"EQUALS_MATCH: (?P<source>.+?) == (?P<value>-?\d+)\s*(?:#\s*(?P<note>.*))?$")
_LENGTH = re.compile(
    r"(?:LENGTH_CHECK|DICT_LENGTH): (?P<code>len\(.+?\) == \d+)\s*(?:#\s*(?P<note>.*))?$"
)
# ``LENGTH_CHECK: not L['args']``: an empty container, read as ``len(L['args']) == 0``.
_EMPTY = re.compile(r"LENGTH_CHECK: not (?P<source>[LG]\[\S+)\s*(?:#\s*(?P<note>.*))?$")
# ``DICT_CONTAINS: not ___dict_contains('use_cache', L['kwargs'])``: a key a call passes, or not.
_CONTAINS = re.compile(
    r"DICT_CONTAINS: (?P<code>(?:not )?___dict_contains\(.+?\))\s*(?:#\s*(?P<note>.*))?$"
)
#: ``LAMBDA_GUARD: L['x'] is L['xs'][0]`` (2.13), ``OBJECT_ALIASING: ...`` (a leaf from 2.14 on):
#: every kind any release writes such a line as (a log holds only its own release's).
_LAMBDA_KINDS = tuple(dict.fromkeys(k for r in RELEASES for k in r.guard_text.aliasing_kinds))
_LAMBDA = re.compile(rf"(?:{'|'.join(_LAMBDA_KINDS)}): (?P<code>.+?)\s*(?:#\s*(?P<note>.*))?$")
# ``FLOAT_IS_NAN: (type(L['scale']) is float and __math_isnan(L['scale']))``: a float argument
# compiled as NaN; the entry serves NaN only.
_NAN = re.compile(r"FLOAT_IS_NAN: (?P<code>\(type\(.+?\)\))\s*(?:#\s*(?P<note>.*))?$")
_MARKED = re.compile(
    r"getattr\((?P<source>.+?), '_dynamo_(?P<mark>weak_dynamic|dynamic|static)_indices', set\(\)\)"
    r"\.issubset\(\{(?P<dims>[\d, ]+)\}\)"
)
# A call's other values: ``NONE_MATCH: L['mask'] is None``, ``TRUE_MATCH: L['flag'] == True``
# and an ``EQUALS_MATCH`` on a string or float (``L['mode'] == 'a'``; ints are ``_EQUALS``).
_VALUE = re.compile(
    r"(?:NONE_MATCH|TRUE_MATCH|FALSE_MATCH|EQUALS_MATCH): (?P<code>.+? (?:is None|== .+?))"
    r"\s*(?:#\s*(?P<note>.*))?$"
)
_VALUE_LITERALS = ("NONE_MATCH: ", "TRUE_MATCH: ", "FALSE_MATCH: ", "EQUALS_MATCH: ")
# ``TYPE_MATCH: ___check_type_id(L['xs'], 1407...), type=<class 'list'>``: a call passing a
# tuple where a list was compiled misses.  Kept for the call's own locals, not the module's
# or globals' (the program's, as built), read as ``type(L['xs']) is list``.
_TYPE_MATCH = re.compile(
    r"TYPE_MATCH: ___check_type_id\((?P<source>L\[.+?), (?P<id>\d+)\), "
    r"type=<class '(?P<name>[^']+)'>"
    r"\s*(?:#\s*(?P<note>.*))?$"
)
_TYPE_LITERAL = "TYPE_MATCH: ___check_type_id(L["
_MODULE_TYPE = "TYPE_MATCH: ___check_type_id(L['self']"
#: A lambda guard holding one of these is not a shape guard: Dynamo's helpers
#: (``___check_obj_id``, ``___dict_contains``), not a resume frame's local ``L['___stack0']``.
_NOT_SHAPE = re.compile(r"(?<!\[')___|utils_device|torch\._functorch|__check")
# The literal part each pattern needs: a line without it cannot match, so it is not searched.
_GLOBAL_LITERAL = "GLOBAL_STATE:"
_MARKED_LITERAL = "_indices', set()).issubset({"
_ABSENT_LITERAL = "_indices') == False"
_TENSOR_LITERAL = "TENSOR_MATCH: check_tensor("
_LENGTH_LITERAL = ": len("  # LENGTH_CHECK and DICT_LENGTH
_EMPTY_LITERAL = "LENGTH_CHECK: not "
_CONTAINS_LITERAL = "DICT_CONTAINS: "
_EQUALS_LITERAL = "EQUALS_MATCH: "
_LAMBDA_LITERAL = ": "
_NAN_LITERAL = "FLOAT_IS_NAN: "
#: Kinds of guards symdebug does not evaluate: kept, so that a call giving what they read is
#: not sure (on the module or a global, they are the program's own state, taken as recorded).
_OPAQUE_KINDS = ("ID_MATCH", "NO_HASATTR", "HASATTR", "NO_TENSOR_ALIASING")
_OPAQUE = re.compile(rf"(?:{'|'.join(_OPAQUE_KINDS)}): (?P<code>.+?)\s*(?:#\s*(?P<note>.*))?$")
_SELF = "L['self']"


@dataclass(frozen=True, slots=True)
class TensorProperties:
    """What a TENSOR_MATCH checks besides sizes: type, dispatch keys, dtype, device, grad."""

    type_name: str
    dispatch_keys: str
    dtype: str
    device: int | None
    requires_grad: bool


@dataclass(frozen=True, slots=True)
class TensorMatch:
    """One TENSOR_MATCH: the dims that are static (ints) or dynamic (None), and the rest.

    Immutable: one is made per distinct line and shared by the trees that hold the line.
    """

    source: str
    sizes: tuple[int | None, ...]
    strides: tuple[int | None, ...]
    note: str = ""
    properties: TensorProperties | None = None
    #: The source of each dim (``L['x'].size()[0]``).
    size_sources: tuple[Source, ...] = ()
    #: Its input dims where every dim is static (a symbolic dim's value is the compile's).
    static_dims: tuple[InputDim, ...] | None = None


@dataclass(slots=True)
class GuardTree:
    """The shape-relevant facts of one compile's guard tree."""

    tensors: list[TensorMatch] = field(default_factory=list)
    ints: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: Each int's input dim, by source as :attr:`ints`.
    int_dims: dict[str, InputDim] = field(default_factory=dict)
    shape_lines: list[ShapeCheck] = field(default_factory=list)
    #: Checks on a call's other values (None, bools, strings, floats), as Dynamo runs them.
    value_lines: list[ShapeCheck] = field(default_factory=list)
    marked_dynamic: list[str] = field(default_factory=list)
    marked_static: list[str] = field(default_factory=list)
    global_state: dict[str, Any] = field(default_factory=dict)
    #: Per tensor source, the ``mark_dynamic`` attributes it must not carry.
    absent_marks: dict[str, list[str]] = field(default_factory=dict)
    #: Per source of a ``type(...) is`` value line, the class id torch compared.
    type_ids: dict[str, int] = field(default_factory=dict)


def _dims(text: str) -> list[int | None]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    return [None if part == "None" else int(part) for part in parts]


def _global_state(line: str) -> tuple[tuple[str, Any], ...]:
    try:
        state = json.loads(line.split(" against ", 1)[1])
    except (IndexError, ValueError):
        return ()
    return tuple(state.items()) if isinstance(state, dict) else ()


def _marked(match: re.Match[str]) -> tuple[Source, ...]:
    dims = sorted(int(d) for d in match["dims"].split(",") if d.strip())
    return tuple(Source.size(match["source"], d) for d in dims)


def _mark_kind(match: re.Match[str]) -> str:
    """``static`` for ``mark_static``'s indices, ``marked`` for the dynamic marks."""
    return "static" if match["mark"] == "static" else "marked"


def _tensor(match: re.Match[str]) -> TensorMatch:
    sizes, strides = tuple(_dims(match["size"])), tuple(_dims(match["stride"]))
    source = match["source"]
    dims = tuple(Source.size(source, index) for index in range(len(sizes)))
    properties = _properties(match.group(0))
    pairs = zip(dims, sizes, strict=True)
    known = [InputDim(dim, size, False) for dim, size in pairs if size is not None]
    static = tuple(known) if len(known) == len(sizes) else None
    return TensorMatch(source, sizes, strides, match["note"] or "", properties, dims, static)


def _properties(text: str) -> TensorProperties | None:
    """The rest of a ``check_tensor``; None where torch printed it in a form not known here."""
    found = _TENSOR_PROPERTIES.search(text)
    if found is None:
        return None
    device = None if found["device"] == "None" else int(found["device"])
    grad = found["grad"] == "True"
    return TensorProperties(found["type"], found["keys"], found["dtype"], device, grad)


#: What one line of a guard tree holds: its kind and its (immutable) data.
LineFact = tuple[str, Any]


def _lambda(match: re.Match[str]) -> LineFact | None:
    code = match["code"].strip()
    if _NOT_SHAPE.search(code) is not None:
        return None
    return ("shape", ShapeCheck(code, (match["note"] or "").strip()))


def _note(match: re.Match[str]) -> str:
    return (match["note"] or "").strip()


def _value(match: re.Match[str]) -> LineFact | None:
    """A check on a value: its right side must be a literal (a string holding ``#`` is cut)."""
    code = match["code"].strip()
    literal = "None" if code.endswith(" is None") else code.rsplit(" == ", 1)[1]
    # Only a string can be cut; any other right side is kept (``L['c'].dtype ==
    # torch.float64`` too: a call that gives it is not sure), so only a string is parsed.
    if " #" in literal or "'" in literal or '"' in literal:
        try:
            ast.literal_eval(literal)
        except (ValueError, SyntaxError):
            return None  # a string holding ``#``, cut: not the check torch runs
    return ("value", ShapeCheck(code, _note(match)))


#: Inside a module a call passes (its submodules, parameters, ``__dict__``): the program's.
_MODULE_PART = re.compile(r"\._modules|\._parameters|\._buffers|__")


def _type_line(match: re.Match[str]) -> LineFact | None:
    source = match["source"]
    if _MODULE_TYPE in match.group(0) or _MODULE_PART.search(source) is not None:
        return None
    # The id is kept beside the line: only the process that compiled can compare it.
    line = ShapeCheck(f"type({source}) is {match['name']}", _note(match))
    return ("type", (line, source, int(match["id"])))


def _value_line(line: str) -> LineFact | None:
    if not any(literal in line for literal in _VALUE_LITERALS):
        return None
    match = _VALUE.search(line)
    return _value(match) if match is not None else None


def _opaque(match: re.Match[str]) -> LineFact | None:
    """A guard we do not evaluate, where it reads a local other than the module."""
    code = match["code"]
    if "L[" not in code or all(part.startswith("'self']") for part in code.split("L[")[1:]):
        return None
    return ("value", ShapeCheck(code, _note(match)))


def _int(match: re.Match[str]) -> tuple[str, int, str, InputDim]:
    """An ``EQUALS_MATCH`` on an int: its source, value, note, and its input dim."""
    source, value = match["source"], int(match["value"])
    return source, value, match["note"] or "", InputDim(Source(source), value, False)


_Make = Callable[[re.Match[str]], LineFact | None]
_Parser = tuple[str, re.Pattern[str], _Make]

#: In priority order: the kinds of line a pattern reads (None: any kind, its text is not a
#: kind's), the fixed text a line needs, the pattern, and what a match holds.
_PARSERS: tuple[tuple[tuple[str, ...] | None, str, re.Pattern[str], _Make], ...] = (
    (None, _MARKED_LITERAL, _MARKED, lambda m: (_mark_kind(m), _marked(m))),
    (("TENSOR_MATCH",), _TENSOR_LITERAL, _TENSOR, lambda m: ("tensor", _tensor(m))),
    (None, _ABSENT_LITERAL, _ABSENT_MARK, lambda m: ("absent_mark", (m["source"], m["mark"]))),
    (
        ("LENGTH_CHECK", "DICT_LENGTH"),
        _LENGTH_LITERAL,
        _LENGTH,
        lambda m: ("shape", ShapeCheck(m["code"], _note(m))),
    ),
    (
        ("LENGTH_CHECK",),
        _EMPTY_LITERAL,
        _EMPTY,
        lambda m: ("shape", ShapeCheck(f"len({m['source']}) == 0", _note(m))),
    ),
    (
        ("DICT_CONTAINS",),
        _CONTAINS_LITERAL,
        _CONTAINS,
        lambda m: ("value", ShapeCheck(m["code"], _note(m))),
    ),
    (("EQUALS_MATCH",), _EQUALS_LITERAL, _EQUALS, lambda m: ("int", _int(m))),
    (("TYPE_MATCH",), _TYPE_LITERAL, _TYPE_MATCH, _type_line),
    (_LAMBDA_KINDS, _LAMBDA_LITERAL, _LAMBDA, _lambda),
    (("FLOAT_IS_NAN",), _NAN_LITERAL, _NAN, lambda m: ("value", ShapeCheck(m["code"], _note(m)))),
)


@cache
def _parsers_of(kind: str) -> tuple[_Parser, ...]:
    """The parsers a line of this kind may match, in priority order."""
    return tuple(
        (literal, pattern, make)
        for kinds, literal, pattern, make in _PARSERS
        if kinds is None or kind in kinds
    )


def line_fact(line: str) -> LineFact | None:
    """What one tree line (from its ``+- KIND:`` on) holds.

    Only the patterns of the line's own kind are tried, each only where its literal part is:
    a kind is a line's first word, and a user line quoted after ``#`` is never read as one.
    """
    if _GLOBAL_LITERAL in line:
        return ("global", _global_state(line))
    kind = line[3 : line.find(":", 3)]
    for literal, pattern, make in _parsers_of(kind):
        if literal in line and (match := pattern.search(line)) is not None:
            return make(match)
    if kind not in _OPAQUE_KINDS:
        return _value_line(line)
    if line.count("L[") == line.count(_SELF):
        return None  # only the module's locals: what :func:`_opaque` says, without the pattern
    match = _OPAQUE.search(line)
    return _opaque(match) if match is not None else _value_line(line)


def _add(tree: GuardTree, kind: str, data: Any) -> None:
    """Add a fact of the rarer kinds (:func:`parse_guard_tree` adds check lines itself)."""
    if kind == "tensor":
        tree.tensors.append(data)
    elif kind == "int":
        tree.ints[data[0]] = (data[1], data[2])
        tree.int_dims[data[0]] = data[3]
    elif kind == "global":
        tree.global_state = dict(data)
    elif kind == "marked":
        tree.marked_dynamic += data
    elif kind == "static":
        tree.marked_static += data
    elif kind == "absent_mark":
        tree.absent_marks.setdefault(data[0], []).append(data[1])
    elif kind == "type":
        tree.value_lines.append(data[0])
        tree.type_ids[data[1]] = data[2]
    else:
        raise ValueError(f"no guard tree fact of kind {kind!r}")


#: Each line's fact, remembered: the compiles of one frame repeat most lines of their guard
#: trees.
_FACTS: TextMemo[LineFact | None] = TextMemo(line_fact)


#: A tree line of a kind we read, from its ``+- KIND:`` on: one scan of the text finds them
#: all (the literal ``+- `` lets the regex engine skip to each line's guard), where splitting
#: every line first cost twice as much.  ``.*`` (without DOTALL: up to the newline) matches
#: what ``[^\n]*`` does, and the regex engine scans it a tenth faster.  Dimension markings
#: print as ``DIMENSION_DYNAMIC_MARKING_GUARD`` in torch 2.13.
_KEPT_LINE = re.compile(
    r"\+- (?:TENSOR_MATCH|EQUALS_MATCH|LENGTH_CHECK|GLOBAL_STATE"
    r"|NONE_MATCH|TRUE_MATCH|FALSE_MATCH|DICT_LENGTH|DICT_CONTAINS|TYPE_MATCH|FLOAT_IS_NAN"
    r"|ID_MATCH|NO_HASATTR|HASATTR|NO_TENSOR_ALIASING"
    rf"|[A-Z_]*DYNAMIC_MARKING[A-Z_]*|{'|'.join(_LAMBDA_KINDS)}):.*"
)


def parse_guard_tree(text: str | None) -> GuardTree:
    """Parse the tree; lines of other kinds are ignored."""
    tree = GuardTree()
    add_value, add_shape = tree.value_lines.append, tree.shape_lines.append
    for kind, data in filter(None, _FACTS.all_of(_KEPT_LINE.findall(text or ""))):
        if kind == "value":  # the most common kinds, added without a call
            add_value(data)
        elif kind == "shape":
            add_shape(data)
        else:
            _add(tree, kind, data)
    return tree

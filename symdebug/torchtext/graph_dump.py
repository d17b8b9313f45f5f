"""Parse a Dynamo graph as torch prints it (``dynamo_output_graph`` payload).

The same text reaches live capture and ``TORCH_TRACE`` logs: placeholders with their sizes
in the ``forward`` signature, then one line per node, each group under a
``# File: path:line in fn, code: ...`` comment naming the user line it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from symdebug.model.code_types import FxNode
from symdebug.model.values import CompileId
from symdebug.torchtext.symbol_names import free_symbols
from symdebug.torchtext.text_memo import TextMemo

_SIGNATURE = re.compile(r"^(?P<indent>\s*)def forward\(self,?\s*(?P<params>.*)\):\s*$")
_PURE_SYMBOL = re.compile(r"^s\d+$")
_PARAM = re.compile(r'(?P<name>\w+): "(?P<annotation>[^"]*)"')
_FILE = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>[^,]+), code: (?P<code>.*)$")
# A node line ``name: "annotation" = rhs;  dead = None`` up to its rhs, which runs to the first
# ``;  `` after its first character, or to the end of the line.
_ANNOTATED_NODE = re.compile(r'^\s*(?P<name>\w+): "(?P<annotation>[^"]*)" = ')
_RHS_END = ";  "
_CALL = re.compile(r"(?:^|[\s.(])(?P<fn>[A-Za-z_]\w*)\(")
_INDEXED = re.compile(r"^\w+\[")
_METHOD = re.compile(r"^\w+\.(\w+)\(")
#: The literal parts the patterns need: a line without one cannot match.
_SIGNATURE_LITERAL = "def forward(self"
_FILE_LITERAL = "# File: "
_ANNOTATED = ': "'
_SPLIT_AT = re.compile(r"[()\[\],]")
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK = re.compile(f"[{_LINE_BREAKS}]")
_OPERATORS = (
    ("//", "floordiv"),
    ("**", "pow"),
    ("*", "mul"),
    ("+", "add"),
    ("-", "sub"),
    ("/", "truediv"),
    ("%", "mod"),
    ("@", "matmul"),
    ("[", "getitem"),
)


@dataclass(frozen=True, slots=True)
class Placeholder:
    """A graph input: its name, and its sizes (none for a SymInt input).

    Immutable: one is made per distinct signature and shared by the graphs that have it.
    """

    name: str
    sizes: tuple[str, ...]
    #: The dims whose size is a symbol alone (``s77``).
    symbolic_dims: tuple[int, ...] = ()


def annotation_sizes(annotation: str) -> list[str]:
    """``f32[s77, 2][2, 1]cpu`` -> ``["s77", "2"]``; ``Sym(s77)`` -> ``[]``."""
    if "[" not in annotation or annotation.startswith("Sym("):
        return []
    inner = annotation.split("[", 1)[1].split("]", 1)[0]
    return [part.strip() for part in split_top_level(inner) if part.strip()]


def split_top_level(text: str) -> list[str]:
    """Split on commas outside brackets: ``"a(1, 2), b"`` -> ``["a(1, 2)", " b"]``.

    A blank last part is dropped.  An unmatched closer makes the depth negative, so no comma
    after it splits.
    """
    if "(" in text or "[" in text or ")" in text or "]" in text:
        parts = _split_nested(text)
    else:
        parts = text.split(",")
    return parts if parts[-1].strip() else parts[:-1]


def _split_nested(text: str) -> list[str]:
    """Every part between top-level commas, the last one too (blank or not)."""
    parts: list[str] = []
    depth, start = 0, 0
    for found in _SPLIT_AT.finditer(text):
        char = found.group()
        if char != ",":
            depth += 1 if char in "([" else -1
        elif depth == 0:
            parts.append(text[start : found.start()])
            start = found.end()
    return [*parts, text[start:]]


def _target(rhs: str) -> str:
    """The node's function; each pattern is tried only where its bracket is."""
    if "[" in rhs and _INDEXED.match(rhs):
        return "getitem"
    if "(" in rhs:
        method = _METHOD.match(rhs)
        if method is not None:
            return method[1]
        call = _CALL.search(rhs)
        if call is not None:
            return call["fn"]
    return next((name for op, name in _OPERATORS if op in rhs), "")


#: The breaks ``str.splitlines`` splits at, besides a newline, that ASCII text may hold.
_OTHER_ASCII_BREAKS = [char for char in _LINE_BREAKS if char.isascii() and char != "\n"]


def split_lines(text: str) -> list[str]:
    """``text.splitlines()``: split at newlines alone where the text holds no other break.

    Torch prints graphs with newlines only; ``str.split`` then does in one pass what
    ``splitlines`` does testing each character against ten breaks (``isascii`` is a flag
    read, and each ``in`` a ``memchr``).
    """
    if not text.isascii() or any(char in text for char in _OTHER_ASCII_BREAKS):
        return text.splitlines()
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # splitlines ends at the last break: nothing follows it
    return lines


def _line_at(text: str, index: int) -> str:
    """The line holding ``text[index]``, split as ``str.splitlines`` splits."""
    # The last newline first: the other breaks (rare) are then looked for after it only,
    # not back through the whole text.
    after = text.rfind("\n", 0, index) + 1
    start = max(after, *(text.rfind(char, after, index) + 1 for char in _LINE_BREAKS))
    end = _LINE_BREAK.search(text, index)
    return text[start : end.start() if end else len(text)]


def _signature(text: str) -> re.Match[str] | None:
    """The first line of ``text.splitlines()`` that is the ``forward`` signature."""
    index = text.find(_SIGNATURE_LITERAL)
    while index >= 0:
        if (match := _SIGNATURE.match(_line_at(text, index))) is not None:
            return match
        index = text.find(_SIGNATURE_LITERAL, index + 1)
    return None


def _placeholder(name: str, annotation: str) -> Placeholder:
    sizes = tuple(annotation_sizes(annotation))
    symbolic = tuple(dim for dim, size in enumerate(sizes) if _PURE_SYMBOL.match(size))
    return Placeholder(name, sizes, symbolic)


def _placeholders(params: str) -> tuple[Placeholder, ...]:
    return tuple(_placeholder(p["name"], p["annotation"]) for p in _PARAM.finditer(params))


#: The placeholders of each signature: a frame's recompiles mostly repeat it.
_SIGNATURES: TextMemo[tuple[Placeholder, ...]] = TextMemo(_placeholders, limit=256)


def parse_placeholders(text: str) -> list[Placeholder]:
    """Graph inputs in order, from the ``forward`` signature."""
    match = _signature(text)
    if match is None:
        return []
    return list(_SIGNATURES.get(match["params"]))


def _annotated_node(line: str) -> tuple[str, str, str] | None:
    """(name, annotation, rhs) of the node a graph line assigns with a type annotation.

    What ``_NODE`` matches there, ``None`` where it does not match or has no annotation.
    """
    if _ANNOTATED not in line or line.lstrip().startswith(("def ", "#")):
        return None
    head = _ANNOTATED_NODE.match(line)
    if head is None or head.end() == len(line):
        return None
    end = line.find(_RHS_END, head.end() + 1)
    return head["name"], head["annotation"], line[head.end() : end if end >= 0 else len(line)]


def _where(comment: re.Match[str]) -> tuple[str, int, str]:
    """(filename, line number, code) of a ``# File:`` comment."""
    return comment["file"], int(comment["line"]), comment["code"].strip()


#: What a graph line holds: a ``# File:`` comment's (filename, line number, code), or a
#: node's (name, sizes, symbols, target).
FileComment = tuple[str, int, str]
NodeLine = tuple[str, tuple[str, ...], tuple[str, ...], str]


def graph_line(line: str) -> FileComment | NodeLine | None:
    """What one line of a graph holds, None for a line that is neither."""
    if _FILE_LITERAL in line and (comment := _FILE.match(line)) is not None:
        return _where(comment)
    found = _annotated_node(line)
    if found is None:
        return None
    name, annotation, rhs = found
    sizes = annotation_sizes(annotation)
    symbols = free_symbols(" ".join(sizes) or annotation)
    return name, tuple(sizes), tuple(symbols), _target(rhs)


_LINES: TextMemo[FileComment | NodeLine | None] = TextMemo(graph_line)


#: Where the nodes above the first ``# File:`` comment come from: nowhere known.
_NOWHERE: FileComment = ("", 0, "")


def parse_nodes(text: str, compile_id: CompileId) -> list[FxNode]:
    """Call nodes with their output sizes, symbols and the user line they came from.

    A node's user line is that of the latest ``# File:`` comment above it.
    """
    nodes: list[FxNode] = []
    add, where = nodes.append, _NOWHERE
    found: Iterator[FileComment | NodeLine] = filter(None, _LINES.all_of(split_lines(text)[1:]))
    for fact in found:
        if len(fact) == 3:  # a comment: the user line of the nodes below it
            where = fact
        else:
            name, sizes, symbols, target = fact
            add(FxNode(compile_id, name, "call", target, list(sizes), list(symbols), *where))
    return nodes

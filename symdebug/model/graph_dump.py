"""Parse a Dynamo graph as torch prints it (``dynamo_output_graph`` payload).

The same text reaches live capture and ``TORCH_TRACE`` logs: placeholders with their sizes
in the ``forward`` signature, then one line per node, each group under a
``# File: path:line in fn, code: ...`` comment naming the user line it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symdebug.model.code_types import FxNode
from symdebug.model.guards_builder import free_symbols

_SIGNATURE = re.compile(r"^(?P<indent>\s*)def forward\(self,?\s*(?P<params>.*)\):\s*$")
_PARAM = re.compile(r'(?P<name>\w+): "(?P<annotation>[^"]*)"')
_FILE = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>[^,]+), code: (?P<code>.*)$")
_NODE = re.compile(r'^\s*(?P<name>\w+)(?:: "(?P<annotation>[^"]*)")? = (?P<rhs>.+?)(?:;  .*)?$')
_CALL = re.compile(r"(?:^|[\s.(])(?P<fn>[A-Za-z_]\w*)\(")
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


@dataclass(slots=True)
class Placeholder:
    """A graph input: its name, and its sizes (or its symbol, for a SymInt input)."""

    name: str
    sizes: list[str]
    symbolic_int: str | None = None


def annotation_sizes(annotation: str) -> list[str]:
    """``f32[s77, 2][2, 1]cpu`` -> ``["s77", "2"]``; ``Sym(s77)`` -> ``[]``."""
    if "[" not in annotation or annotation.startswith("Sym("):
        return []
    inner = annotation.split("[", 1)[1].split("]", 1)[0]
    return [part.strip() for part in split_top_level(inner) if part.strip()]


def split_top_level(text: str) -> list[str]:
    """Split on commas outside brackets: ``"a(1, 2), b"`` -> ``["a(1, 2)", " b"]``."""
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        depth += char in "(["
        depth -= char in ")]"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current] if current.strip() else parts


def _target(rhs: str) -> str:
    if re.match(r"^\w+\[", rhs):
        return "getitem"
    method = re.match(r"^\w+\.(\w+)\(", rhs)
    if method is not None:
        return method[1]
    call = _CALL.search(rhs)
    if call is not None:
        return call["fn"]
    return next((name for op, name in _OPERATORS if op in rhs), "")


def parse_placeholders(text: str) -> list[Placeholder]:
    """Graph inputs in order, from the ``forward`` signature."""
    for line in text.splitlines():
        match = _SIGNATURE.match(line)
        if match is not None:
            return [
                Placeholder(p["name"], annotation_sizes(p["annotation"]), _sym(p["annotation"]))
                for p in _PARAM.finditer(match["params"])
            ]
    return []


def _sym(annotation: str) -> str | None:
    return annotation[4:-1] if annotation.startswith("Sym(") else None


def parse_nodes(text: str, compile_id: str) -> list[FxNode]:
    """Call nodes with their output sizes, symbols and the user line they came from."""
    nodes: list[FxNode] = []
    where: re.Match[str] | None = None
    for line in text.splitlines()[1:]:
        if (file_match := _FILE.match(line)) is not None:
            where = file_match
            continue
        match = _NODE.match(line)
        if match is None or match["annotation"] is None or line.lstrip().startswith(("def ", "#")):
            continue
        sizes = annotation_sizes(match["annotation"])
        symbols = free_symbols(" ".join(sizes) or match["annotation"])
        nodes.append(
            FxNode(compile_id, match["name"], "call", _target(match["rhs"]), sizes, symbols)
        )
        if where is not None:
            nodes[-1].filename, nodes[-1].lineno = where["file"], int(where["line"])
            nodes[-1].code = where["code"].strip()
    return nodes

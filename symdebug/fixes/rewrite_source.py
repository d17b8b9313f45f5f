"""One function's source as text with ``ast`` positions, and edits made on its exact text.

A rewrite changes only the statements a fix is about: every other byte of the function stays
as in the file, so the diff is minimal.  Positions are ``(line, column)`` with the line
counted from 1 at the function's first source line and the column in UTF-8 bytes, as
``ast`` gives them (an edit made with character columns would cut a line holding ``é``).
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field

#: ``(line, column)``: the line from 1 in the source, the column in UTF-8 bytes.
Position = tuple[int, int]
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
#: Nodes whose body is a scope of its own: their local names are not the function's.
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class CannotRewriteError(ValueError):
    """The rewrite cannot be made mechanically; the message says why, for users."""


@dataclass(frozen=True)
class Edit:
    """Replace the text from ``start`` to ``end`` (exclusive) by ``text``."""

    start: Position
    end: Position
    text: str


@dataclass
class FunctionSource:
    """A function's source (indented as in the file) and its parsed definition."""

    text: str
    node: FunctionNode
    firstlineno: int = 1
    lines: list[bytes] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = self.text.encode().splitlines(keepends=True)

    def file_line(self, number: int) -> int:
        """The file's line number of source line ``number``."""
        return self.firstlineno + number - 1

    def line(self, number: int) -> str:
        """Source line ``number`` (from 1) without its end, ``""`` past the end."""
        if not 1 <= number <= len(self.lines):
            return ""
        return self.lines[number - 1].decode().rstrip("\r\n")

    def indent(self, number: int) -> str:
        """The leading whitespace of line ``number``."""
        text = self.line(number)
        return text[: len(text) - len(text.lstrip())]

    def segment(self, start: Position, end: Position) -> str:
        """The text between two positions."""
        return self._bytes()[self.offset(start) : self.offset(end)].decode()

    def node_text(self, node: ast.stmt | ast.expr) -> str:
        """A node's source text, as written."""
        return self.segment(start_of(node), end_of(node))

    def offset(self, position: Position) -> int:
        """The byte offset of a position; a line past the end is the end."""
        line, column = position
        before = sum(len(text) for text in self.lines[: line - 1])
        return before + column if line <= len(self.lines) else before

    def starts_line(self, node: ast.stmt) -> bool:
        """Whether only whitespace comes before the node on its first line."""
        return not self.lines[node.lineno - 1][: node.col_offset].strip()

    def ends_line(self, node: ast.stmt) -> bool:
        """Whether only whitespace or a comment follows the node on its last line."""
        rest = self.lines[(node.end_lineno or node.lineno) - 1][node.end_col_offset or 0 :]
        return not rest.strip() or rest.strip().startswith(b"#")

    def string_lines(self) -> set[int]:
        """Lines inside a multi-line string after its first: their text is the string's."""
        inside: set[int] = set()
        tokens = tokenize.generate_tokens(io.StringIO(self.text).readline)
        try:
            for token in tokens:
                if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                    inside.update(range(token.start[0] + 1, token.end[0] + 1))
        except (tokenize.TokenError, SyntaxError):
            pass  # the text parsed with ast: a tokenizer complaint leaves nothing to protect
        return inside

    def _bytes(self) -> bytes:
        return b"".join(self.lines)


def parsed_function(source: str, firstlineno: int = 1) -> FunctionSource:
    """The function defined by ``source`` (indented or not), with positions in ``source``.

    An indented source (a method, a nested function) is parsed under ``if True:`` so that
    columns stay the file's: dedenting would move every column and break on a multi-line
    string whose text starts at column 0.
    """
    indented = source[:1].isspace()
    try:
        tree = ast.parse(f"if True:\n{source}" if indented else source)
    except SyntaxError as error:
        raise CannotRewriteError(f"the function's source does not parse: {error.msg}") from None
    body = tree.body[0].body if indented and isinstance(tree.body[0], ast.If) else tree.body
    if len(body) != 1 or not isinstance(body[0], FunctionNode):
        raise CannotRewriteError("the source is not one function definition")
    if indented:
        ast.increment_lineno(body[0], -1)
    return FunctionSource(source, body[0], firstlineno)


def start_of(node: ast.stmt | ast.expr) -> Position:
    """Where a node starts."""
    return node.lineno, node.col_offset


def end_of(node: ast.stmt | ast.expr) -> Position:
    """Where a node ends (exclusive)."""
    return node.end_lineno or node.lineno, node.end_col_offset or 0


def applied(source: FunctionSource, edits: list[Edit]) -> tuple[str, list[tuple[int, int]]]:
    """The source with the edits made, and the lines each edit wrote (from 0, end exclusive).

    Edits must not overlap.  A line that ends without a newline gets one before new lines.
    """
    data = b"".join(source.lines)
    out, spans, done = bytearray(), [], 0
    for edit in sorted(edits, key=lambda e: source.offset(e.start)):
        start, end = source.offset(edit.start), source.offset(edit.end)
        out += data[done:start]
        text = edit.text.encode()
        if text and start == len(data) and data and not data.endswith(b"\n"):
            out += b"\n"
        first = out.count(b"\n")
        out += text
        if text.strip() or edit.start[1] or edit.end[1]:  # new text, or a line cut short
            last = out.count(b"\n") - (1 if text.endswith(b"\n") else 0)
            spans.append((first, last + 1))
        done = max(done, end)
    out += data[done:]
    return out.decode(), _merged(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges joined where they overlap or touch."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list of a function's body, nested blocks too, not nested scopes."""
    for name in ("body", "orelse", "finalbody", "handlers", "cases"):
        block = getattr(node, name, None)
        if not isinstance(block, list) or not block:
            continue
        statements = [s for s in block if isinstance(s, ast.stmt)]
        if statements:
            yield statements
        for child in block:
            if not isinstance(child, SCOPES):
                yield from blocks(child)


def statements(function: FunctionNode) -> Iterator[ast.stmt]:
    """Every statement of the function's body, at any depth, not in nested scopes."""
    for block in blocks(function):
        yield from block


def innermost_statement(function: FunctionNode, line: int) -> ast.stmt | None:
    """The innermost statement whose lines hold ``line`` (a compound's header: itself).

    Of statements sharing the line (``a = 1; b = 2``), the first.
    """
    found, block = None, function.body
    while True:
        holding = next((s for s in block if s.lineno <= line <= (s.end_lineno or 0)), None)
        if holding is None or isinstance(holding, SCOPES):
            return holding or found
        found, block = holding, _children(holding)


def _children(statement: ast.stmt) -> list[ast.stmt]:
    """The statements directly inside a compound statement."""
    direct = [getattr(statement, name, []) for name in ("body", "orelse", "finalbody")]
    nested = [*getattr(statement, "handlers", []), *getattr(statement, "cases", [])]
    return [s for block in [*direct, *(n.body for n in nested)] for s in block]


def reindented(source: FunctionSource, first: int, last: int, old: str, new: str) -> str:
    """Lines ``first..last`` with the leading ``old`` made ``new`` (string text kept)."""
    keep = source.string_lines()
    out = []
    for number in range(first, last + 1):
        text = source.line(number)
        if number not in keep and text.startswith(old) and text.strip():
            text = new + text[len(old) :]
        out.append(text + "\n")
    return "".join(out)

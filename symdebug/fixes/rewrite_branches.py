"""The text that replaces an ``if``: two branch functions and the ``torch.cond`` call.

Each side's lines are copied as written.  A side in an indented block needs no change at
all: ``def _true_branch(h):`` at the ``if``'s indentation takes the block's lines as its
body.  Only a side on the header's line (``if c: return a``), the code after an ``if``
without ``else``, or an ``elif`` chain moves one indentation step.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from symdebug.fixes.rewrite_names import every_name
from symdebug.fixes.rewrite_source import FunctionSource, end_of, reindented, start_of


@dataclass(frozen=True)
class Sides:
    """An ``if`` and what each side runs; ``value`` is the name both assign, None: both return."""

    node: ast.If
    true: list[ast.stmt]
    false: list[ast.stmt]
    value: str | None


def branch_names(source: FunctionSource) -> tuple[str, str]:
    """``_true_branch`` and ``_false_branch``, with a suffix if the function uses either."""
    taken = every_name(source.node)
    suffix, count = "", 0
    while f"_true_branch{suffix}" in taken or f"_false_branch{suffix}" in taken:
        count += 1
        suffix = f"_{count}"
    return f"_true_branch{suffix}", f"_false_branch{suffix}"


def cond_text(
    source: FunctionSource, sides: Sides, operands: list[str], names: tuple[str, str]
) -> str:
    """The lines that replace the ``if`` (and, without ``else``, the code after it)."""
    node, step = sides.node, _step(source)
    outer = source.indent(node.lineno)
    elif_ = is_elif(source, node)
    base = outer + step if elif_ else outer  # an elif becomes `else:` and a block
    parts = [f"{outer}else:\n"] if elif_ else []
    for name, side in zip(names, (sides.true, sides.false), strict=True):
        indent, body = _side(source, side, outer, base, step)
        parts += [f"{base}def {name}({', '.join(operands)}):\n", body]
        if sides.value is not None:
            parts.append(f"{indent}return {sides.value}\n")
    condition = source.node_text(node.test)
    call = f"torch.cond({condition}, {names[0]}, {names[1]}, {_tuple(operands)})"
    target = "return " if sides.value is None else f"{sides.value} = "
    return "".join([*parts, f"{base}{target}{call}\n"])


def is_elif(source: FunctionSource, node: ast.stmt) -> bool:
    """Whether an ``If`` node is written ``elif`` (it starts at that keyword)."""
    return source.lines[node.lineno - 1][node.col_offset :].startswith(b"elif")


def _step(source: FunctionSource) -> str:
    """One indentation step as the function writes it (four spaces if it cannot tell)."""
    body = source.node.body[0]
    outer, inner = source.indent(source.node.lineno), source.indent(body.lineno)
    if source.starts_line(body) and inner.startswith(outer) and inner != outer:
        return inner[len(outer) :]
    return "    "


def _tuple(names: list[str]) -> str:
    return f"({names[0]},)" if len(names) == 1 else f"({', '.join(names)})"


def _side(
    source: FunctionSource, side: list[ast.stmt], outer: str, base: str, step: str
) -> tuple[str, str]:
    """A side's lines as the body of a def written at ``base``: (their indentation, text)."""
    first, last = side[0], side[-1]
    if not source.starts_line(first):  # `if c: return a`: the side is on the header's line
        indent = base + step
        return indent, indent + source.segment(start_of(first), end_of(last)) + "\n"
    old = source.indent(first.lineno)
    deeper = old[len(outer) :] if old.startswith(outer) and old != outer else step
    indent = base + deeper
    start = _comments_above(source, first.lineno)
    text = reindented(source, start, last.end_lineno or last.lineno, old, indent)
    if is_elif(source, first):
        text = _elif_as_if(text, first.lineno - start, indent)
    return indent, text


def _comments_above(source: FunctionSource, line: int) -> int:
    """The first of the comment lines right above ``line`` (they go with the side)."""
    while line > 1 and source.line(line - 1).strip().startswith("#"):
        line -= 1
    return line


def _elif_as_if(text: str, index: int, indent: str) -> str:
    """``elif c:`` as ``if c:``: the chain's first test opens the branch function's body."""
    lines = text.splitlines(keepends=True)
    if lines[index].startswith(f"{indent}elif"):
        lines[index] = indent + lines[index][len(indent) + 2 :]
    return "".join(lines)

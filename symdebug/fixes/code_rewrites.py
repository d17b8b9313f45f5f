"""A fix's code made into the user's function: its source rewritten, for a replay to swap in.

The fixes of :mod:`fix_changes`, :mod:`data_dependent_fixes` and :mod:`graph_break_fixes`
say what to write (``torch.cond(...)``, ``h[:, -1]``, a pad, a ``torch._check``, no
print); :func:`rewrite` writes it into the one function the fix is about.  Only the
affected statements change: every other line stays byte for byte as in the file, so the
diff is what a person would make.  Pure: text in, text out, nothing imported or run.
"""

from __future__ import annotations

import ast
import difflib
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from symdebug.fixes.rewrite_cond import cond_rewrite
from symdebug.fixes.rewrite_kinds import (
    check_rewrite,
    index_rewrite,
    pad_rewrite,
    print_rewrite,
)
from symdebug.fixes.rewrite_source import (
    CannotRewriteError,
    Edit,
    FunctionSource,
    applied,
    parsed_function,
)

RewriteKind = Literal["cond", "index", "pad", "check", "remove_print"]
PRINT_FIX = "torch._dynamo.config.reorderable_logging_functions.add(print)"
_IN_CALLER = "a replay cannot rewrite the workload"
#: The fixes whose code says its kind in its first words.
_PREFIXES: tuple[tuple[str, RewriteKind], ...] = (
    (re.escape(PRINT_FIX) + "$", "remove_print"),
    (r"torch\.cond\(", "cond"),
    (r"torch\._check\(", "check"),
    (r"\w+ = torch\.nn\.functional\.pad\(", "pad"),
)
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


@dataclass(frozen=True)
class Rewrite:
    """One function's source before and after a fix.

    Attributes
    ----------
    filename, qualname
        Where the function is, and its name as the caller gave it.
    firstlineno
        The file's line of the function's first source line (a decorator or the ``def``).
    before, after
        The function's source as in the file, and rewritten (same indentation, same first
        line; inserted lines shift the lines after them).
    what
        One line for people: ``torch.cond for `if h.shape[1] > 4:```.
    spans
        The lines of ``after`` the rewrite wrote, from 0, end exclusive.
    """

    filename: str
    qualname: str
    firstlineno: int
    before: str
    after: str
    what: str
    spans: tuple[tuple[int, int], ...] = ()

    def diff(self) -> str:
        """A unified diff, its line numbers the file's (``model.py:12 (before)``)."""
        name = f"{Path(self.filename).name or self.qualname or '<source>'}:{self.firstlineno}"
        lines = difflib.unified_diff(
            _ended(self.before), _ended(self.after), f"{name} (before)", f"{name} (after)"
        )
        return "".join(_file_numbers(line, self.firstlineno - 1) for line in lines)

    def changed_lines(self) -> str:
        """The new and changed statements, dedented, as a user would paste them."""
        lines = self.after.split("\n")  # as the spans count lines: at "\n" only
        pieces = [textwrap.dedent("\n".join(lines[a:b])) for a, b in self.spans]
        if pieces:
            return "\n\n".join(pieces) + "\n"
        before = self.before.split("\n")
        matcher = difflib.SequenceMatcher(None, before, lines)
        removed = [
            line
            for tag, i, j, _, _ in matcher.get_opcodes()
            if tag != "equal"
            for line in before[i:j]
        ]
        return "".join(f"# removed: {line.strip()}\n" for line in removed)


@dataclass(frozen=True)
class NotMechanical:
    """A fix that no mechanical rewrite makes; ``reason`` says why, for users."""

    reason: str


def _ended(text: str) -> list[str]:
    """The lines of ``text``, each ending with a newline (the last one too)."""
    return [f"{line}\n" for line in text.removesuffix("\n").split("\n")]


def _file_numbers(line: str, offset: int) -> str:
    """A hunk header with the file's line numbers (difflib counts from the function's)."""
    match = _HUNK.match(line)
    if match is None:
        return line
    old, new = int(match[1]) + offset, int(match[3]) + offset
    rest = line[match.end() :]
    return f"@@ -{old}{match[2] or ''} +{new}{match[4] or ''} @@{rest}"


def rewrite_kind(fix_code: str) -> RewriteKind | None:
    """Which rewrite makes a fix's code, or None when none does.

    Parameters
    ----------
    fix_code
        The code of a suggested fix (``torch.cond(...)``, ``h[:, -1]``,
        ``x = torch.nn.functional.pad(...)``, ``torch._check(n >= 0)``, the print setting).

    Returns
    -------
    RewriteKind or None
        ``cond``, ``index``, ``pad``, ``check`` or ``remove_print``.
    """
    code = fix_code.strip()
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    kind = next((k for prefix, k in _PREFIXES if re.match(prefix, code)), None)
    if kind is not None:
        return kind
    statement = tree.body[0]
    return "index" if isinstance(statement, ast.Expr) and _is_index(statement.value) else None


def _is_index(node: ast.expr) -> bool:
    """``h[:, -1]``, ``h.select(1, i)``, ``torch.narrow(h, 1, i, 1)``."""
    if isinstance(node, ast.Subscript):
        return True
    if not isinstance(node, ast.Call):
        return False
    function = ast.unparse(node.func)
    return function == "torch.narrow" or function.endswith(".select")


def not_mechanical_reason(fix_code: str) -> str | None:
    """Why a fix that changes the caller, not the function, is no rewrite; None otherwise.

    ``n = torch.as_tensor(n)``, ``xs = torch.nn.utils.rnn.pad_sequence(xs, ...)`` and a
    value moved out of the function (``n = x.sum().item()``) are written before the
    compiled call, in code the replay does not own.
    """
    match = re.match(r"^(\w+) = (.+)$", fix_code.strip(), re.DOTALL)
    if match is None:
        return None
    name, value = match[1], match[2]
    if value.startswith("torch.as_tensor("):
        why = f"{name} must be passed in as a tensor"
    elif value.startswith("torch.nn.utils.rnn.pad_sequence("):
        why = f"the list {name} must be stacked into one tensor before the call"
    elif ".item()" in value:
        why = f"{name} must be made before the call and passed in"
    else:
        return None
    return f"the change is in the caller ({why}): {_IN_CALLER}"


def rewrite(
    source: str,
    firstlineno: int,
    line: int,
    fix_code: str,
    *,
    filename: str = "",
    qualname: str = "",
) -> Rewrite | NotMechanical:
    """The function's source with the fix written in, or why it cannot be done mechanically.

    Parameters
    ----------
    source
        The function's source as in the file (a method's indented as in its class).
    firstlineno
        The file's line of the source's first line.
    line
        The file's line the fix is about (the ``if`` line, the line with the index, the
        line that needs the padding, of the print, of the branch on an ``.item()`` value).
    fix_code
        The fix's code.
    filename, qualname
        Kept in the result, to find the function and to name it.

    Returns
    -------
    Rewrite or NotMechanical
        The rewrite (its ``after`` parses), or the reason there is none.
    """
    reason = not_mechanical_reason(fix_code)
    kind = rewrite_kind(fix_code)
    if reason is not None or kind is None:
        return NotMechanical(reason or f"no mechanical rewrite writes `{fix_code.strip()}`")
    try:
        parsed = _holding(parsed_function(source, firstlineno), line)
        edits, what = _edits(kind, parsed, line - firstlineno + 1, fix_code)
    except CannotRewriteError as error:
        return NotMechanical(str(error))
    after, spans = applied(parsed, edits)
    return Rewrite(filename, qualname, firstlineno, source, after, what, tuple(spans))


def _holding(parsed: FunctionSource, line: int) -> FunctionSource:
    """The parsed function, if it holds the file's ``line``."""
    last = parsed.file_line(len(parsed.lines))
    if not parsed.firstlineno <= line <= last:
        where = f"lines {parsed.firstlineno}-{last}"
        raise CannotRewriteError(f"line {line} is not in the function ({where})")
    return parsed


def _edits(
    kind: RewriteKind, parsed: FunctionSource, line: int, fix_code: str
) -> tuple[list[Edit], str]:
    """The edits of one kind; ``line`` is the source's (from 1)."""
    if kind == "cond":
        return cond_rewrite(parsed, line)
    if kind == "index":
        return index_rewrite(parsed, line, fix_code)
    if kind == "pad":
        return pad_rewrite(parsed, line, fix_code)
    if kind == "check":
        return check_rewrite(parsed, line, fix_code)
    return print_rewrite(parsed, line)

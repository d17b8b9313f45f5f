"""Every ```python block of README.md, run as written, its shown output compared (issue 32).

How the README is written decides how its blocks run:

- A block is a program of its own: it runs in a fresh interpreter, in a temporary folder as the
  working directory, under real ``torch.compile``.  A block whose first line names a file
  (``# f.py``) is written to that file and run from it, so the files and line numbers it
  prints are the ones the README shows; a block without one runs as ``readme_line<N>.py``.
- A block preceded by ``<!-- continues f.py -->`` (an HTML comment, unseen on the rendered
  page) goes on with the session of the block named ``f.py``: it runs after it, in the same
  interpreter and namespace (the "More" section keeps using ``s`` and ``cf`` of the first
  example).  This is the only marker; a block with neither is standalone and must import what
  it uses.
- A ``# test_*.py`` block is a pytest file: it is run with pytest, as the output block after
  it shows (``$ pytest test_budget.py``), with the installed symdebug plugin.
- A plain ``` block right after a python block (only blank lines between) is what that block
  prints: its lines must appear, in order and contiguous, in the block's standard output.  In a
  line, ``(...)`` or ``...`` stands for any text (a path, a cut-off end); a line that is only
  ``...`` stands for any number of lines.  A first line ``$ COMMAND`` is the command run.
- A line ``expression  # literal`` whose comment (or its part before the first ``: ``) is a
  Python literal shows a value: the expression, evaluated once its block has run, must equal
  it (``[r.cause for r in s.recompiles]   # ['static_by_default', ...]``).

Shell blocks are not run (they need scripts and logs the README does not give), but every
``symdebug SUBCOMMAND`` they show must exist (``symdebug SUBCOMMAND --help``).  Everything
runs in subprocesses, so the whole file takes a minute or more on two cores: slow.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```(\S*)\s*$")
FILE_NAME = re.compile(r"^# ([\w.-]+\.py)\s*$")
CONTINUES = re.compile(r"^<!--\s*continues\s+([\w.-]+\.py)\s*-->$")
MARK = "\x1e readme block {} \x1e"  # between the outputs of the blocks of one run

# Runs the blocks of one group in one interpreter, in __main__, as `python f.py` would: the
# code's file is the absolute path, sys.argv[0] the name, classes and functions belong to a real
# module with a __file__.
DRIVER = """
import ast, json, os, sys, __main__

def _readme_run(plan):
    sys.argv = [plan[0]["file"]]
    __main__.__file__ = os.path.abspath(plan[0]["file"])
    namespace = __main__.__dict__
    for index, block in enumerate(plan):
        print(MARK.format(index), flush=True)
        with open(block["file"], encoding="utf-8") as source:
            code = compile(source.read(), os.path.abspath(block["file"]), "exec")
        exec(code, namespace)
        sys.stdout.flush()
        for expression, literal in block["checks"]:
            value, shown = eval(expression, namespace), ast.literal_eval(literal)
            if value != shown:
                raise SystemExit(
                    f"{block['file']}: {expression} is {value!r}, the README shows {shown!r}"
                )

_readme_run(json.loads(sys.argv[1]))
"""


@dataclass
class Block:
    """One fenced block of the README."""

    lang: str
    line: int  # of its first line of content (1-based)
    text: str
    before: str  # the last non-blank line before the opening fence
    gap_after: int = -1  # blank lines between its closing fence and the next block's opening


@dataclass
class Program:
    """A python block with what the README shows it prints and evaluates to."""

    block: Block
    file: str
    expected: str | None  # the output block after it, if any
    checks: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Group:
    """Blocks run in one interpreter: a standalone block and the blocks that continue it."""

    programs: list[Program]

    @property
    def name(self) -> str:
        return self.programs[0].file


def readme_blocks(text: str) -> list[Block]:
    lines = text.splitlines()
    blocks: list[Block] = []
    i, last_close = 0, -1
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        if blocks and all(not lines[k].strip() for k in range(last_close + 1, i)):
            blocks[-1].gap_after = i - last_close - 1
        blocks.append(Block(opening.group(1), i + 2, "\n".join(lines[i + 1 : end]) + "\n", before))
        i, last_close = end + 1, end
    return blocks


def shown_values(code: str) -> list[tuple[str, str]]:
    """``expression  # literal`` lines: the expression and the literal it shows."""
    comments = {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    }
    found: list[tuple[str, str]] = []
    for statement in ast.parse(code).body:
        comment = comments.get(statement.lineno)
        if not isinstance(statement, ast.Expr) or statement.end_lineno != statement.lineno:
            continue
        if comment is None:
            continue
        candidates = [comment] + [comment[: m.start()] for m in re.finditer(": ", comment)]
        for candidate in candidates:
            try:
                ast.literal_eval(candidate)
            except (ValueError, SyntaxError):
                continue
            found.append((ast.get_source_segment(code, statement) or "", candidate))
            break
    return found


def readme_groups() -> list[Group]:
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    groups: dict[str, Group] = {}
    for index, block in enumerate(blocks):
        if block.lang != "python":
            continue
        follower = blocks[index + 1] if index + 1 < len(blocks) else None
        shows_output = follower is not None and follower.lang == "" and block.gap_after >= 0
        named = FILE_NAME.match(block.text.splitlines()[0])
        file = named.group(1) if named else f"readme_line{block.line}.py"
        program = Program(
            block,
            file,
            follower.text if shows_output and follower else None,
            shown_values(block.text),
        )
        continues = CONTINUES.match(block.before.strip())
        if continues:
            assert not named, f"README line {block.line}: a continuing block names no file"
            assert continues.group(1) in groups, (
                f"README line {block.line}: continues {continues.group(1)}, no earlier block"
            )
            groups[continues.group(1)].programs.append(program)
        else:
            assert file not in groups, f"README line {block.line}: {file} named twice"
            groups[file] = Group([program])
    return list(groups.values())


def output_pattern(expected: list[str]) -> re.Pattern[str]:
    """Expected lines as one regex: ``(...)``/``...`` in a line any text, a ``...`` line any
    number of lines."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = re.split(r"\(\.\.\.\)|\.\.\.", line.rstrip())
        parts.append(r"[^\n]*".join(re.escape(piece) for piece in pieces) + r"[ \t]*\n")
    return re.compile(r"^" + "".join(parts), re.MULTILINE)


def assert_shows(actual: str, expected: str, where: str) -> None:
    lines = expected.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not output_pattern(lines).search(actual + "\n"):
        pytest.fail(f"{where}: the README shows\n{expected}\nbut it printed\n{actual}")


def child_env() -> dict[str, str]:
    """The environment of a user's shell: no pytest state of this run, no display."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["MPLBACKEND"] = "Agg"
    return env


GROUPS = readme_groups()


def test_readme_has_blocks_to_run() -> None:
    """The parse finds the README's examples (an empty list would make the test pass)."""
    files = [group.name for group in GROUPS]
    assert len(files) >= 3, files
    assert sum(len(group.programs) for group in GROUPS) >= 5
    assert any(program.expected for group in GROUPS for program in group.programs)


@pytest.mark.slow
@pytest.mark.parametrize("group", GROUPS, ids=[group.name for group in GROUPS])
def test_readme_block_runs_as_written(group: Group, tmp_path: Path) -> None:
    for program in group.programs:
        (tmp_path / program.file).write_text(program.block.text, encoding="utf-8")
    where = f"README.md line {group.programs[0].block.line} ({group.name})"

    if group.name.startswith("test_"):  # a pytest file: run it as the README does
        (program,) = group.programs
        expected = program.expected or f"$ pytest {program.file}\n"
        command, _, shown = expected.partition("\n")
        assert command == f"$ pytest {program.file}", f"{where}: run as {command!r}"
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", program.file],
            cwd=tmp_path,
            env=child_env(),
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert result.returncode in (0, 1), f"{where}: pytest failed\n{result.stdout}"
        assert_shows(result.stdout, shown or "...", where)
        return

    plan = [{"file": program.file, "checks": program.checks} for program in group.programs]
    result = subprocess.run(
        [sys.executable, "-c", f"MARK = {MARK!r}\n{DRIVER}", json.dumps(plan)],
        cwd=tmp_path,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, (
        f"{where} failed (exit {result.returncode})\n{result.stdout}\n{result.stderr}"
    )
    outputs = result.stdout.split("\n")
    segments: list[list[str]] = []
    for line in outputs:
        if line.startswith(MARK.format(len(segments))):
            segments.append([])
        elif segments:
            segments[-1].append(line)
    assert len(segments) == len(group.programs), result.stdout
    for program, segment in zip(group.programs, segments, strict=True):
        if program.expected is not None:
            assert_shows(
                "\n".join(segment),
                program.expected,
                f"README.md line {program.block.line} ({program.file})",
            )


def shell_subcommands() -> list[str]:
    """The ``symdebug SUBCOMMAND`` commands of the README's shell blocks: a transcript's
    ``$ `` lines (the rest is output), or every line of a list of commands."""
    found: list[str] = []
    for block in readme_blocks(README.read_text(encoding="utf-8")):
        if block.lang:
            continue
        lines = block.text.splitlines()
        if any(line.startswith("$ ") for line in lines):
            lines = [line.removeprefix("$ ") for line in lines if line.startswith("$ ")]
        for line in lines:
            words = shlex.split(line, comments=True)
            if len(words) >= 2 and words[0] == "symdebug" and words[1] not in found:
                found.append(words[1])
    return found


def test_readme_shell_commands_exist() -> None:
    subcommands = shell_subcommands()
    assert {"summary", "why", "report", "run", "fix", "hunt", "diff"} <= set(subcommands)
    for subcommand in subcommands:
        result = subprocess.run(
            [sys.executable, "-m", "symdebug", subcommand, "--help"],
            env=child_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, f"symdebug {subcommand} --help\n{result.stderr}"

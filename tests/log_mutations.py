"""Aimed damage to real ``TORCH_TRACE`` logs, for the Hypothesis fuzz test
(``unit/test_fuzz_hypothesis.py``) and the long fuzz of ``make bench``
(``benchmarks/bench_fuzz.py``).

A :class:`Mutation` names a line and what to do there: replace the value at a path in the
line's JSON envelope, drop the key there, cut the line, double it, or replace it by raw bytes;
and the hostile inputs of issue 33: file names of 5000 characters in the interned strings
that frames point at, a line past the reader's limit (:data:`LINE_LIMIT` in the fuzz, set by
:func:`short_line_limit`), NUL bytes inside a line, JSON nested 100,000 deep in an envelope
or a payload.  Paths pick keys and items by index modulo their count, so every drawn path
lands somewhere.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import symdebug
from symdebug.renderers.html import render_html
from symdebug.tracefile import reader

#: The reader's line limit in the fuzz: above the longest line of LOGS (31,667 characters),
#: small enough that a line past it is cheap to write and read.
LINE_LIMIT = 100_000
#: How deep the nested JSON of a ``deep`` mutation goes, and how long a ``long_name`` is.
DEPTH = 100_000
NAME_CHARS = 5000

DATA = Path(__file__).resolve().parent / "data"
#: Small real logs of every kind: links and artifacts, a failed compile, exports with guards,
#: and an Inductor run with guard events, kernels and recompiles (the pinned torch's).
LOGS = {
    "links": DATA / "traces" / "links.log",
    "artifacts": DATA / "traces" / "artifacts.log",
    "comp_failure": DATA / "traces" / "comp_failure.log",
    "export_guards": DATA / "traces" / "export_guard_added.log",
    "export_dim": DATA / "export" / "export_dim_specialized.log",
    "inductor": DATA / "triton" / "inductor_cuda_h200.log.gz",
}


@dataclass(frozen=True)
class Mutation:
    """One change: at ``line`` (modulo the count), of ``kind``, aimed by ``path``."""

    line: int
    kind: str  # "value", "drop_key", "cut", "double", "bytes", or a kind of HOSTILE_LINES
    path: list[int]
    value: Any
    cut: float


def read_lines(path: Path) -> list[bytes]:
    """The log's lines, each with its newline (a ``.gz`` log decompressed)."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return data.splitlines(keepends=True)


def _dumps(value: Any) -> bytes:
    """JSON as torch's logger writes it: ASCII (a lone surrogate escaped), NaN allowed."""
    return json.dumps(value, allow_nan=True).encode()


def _aimed(envelope: Any, path: list[int]) -> tuple[Any, Any] | None:
    """The container and key the path ends at, or None where the envelope holds nothing."""
    container: Any = None
    key: Any = None
    current = envelope
    for step in path:
        if isinstance(current, dict) and current:
            container, key = current, list(current)[step % len(current)]
        elif isinstance(current, list) and current:
            container, key = current, step % len(current)
        else:
            break
        current = container[key]
    return (container, key) if container is not None else None


def _changed_envelope(line: bytes, mutation: Mutation) -> bytes:
    prefix, sep, rest = line.partition(b"] ")
    try:
        envelope = json.loads(rest)
    except (ValueError, RecursionError):  # a line an earlier mutation made too deep, too
        return line[: math.floor(len(line) * mutation.cut)] + b"\n"
    aimed = _aimed(envelope, mutation.path)
    if aimed is None:
        return line
    container, key = aimed
    if mutation.kind == "drop_key" and isinstance(container, dict):
        del container[key]
    else:
        container[key] = mutation.value
    return prefix + sep + _dumps(envelope) + b"\n"


def short_line_limit(monkeypatch: Any = None) -> None:
    """Make the reader's line limit :data:`LINE_LIMIT` (the fuzz's ``huge`` lines pass it);
    through ``monkeypatch`` (pytest's) when given, so that it is undone after the test."""
    if monkeypatch is None:
        reader.MAX_LINE_CHARS = LINE_LIMIT
    else:
        monkeypatch.setattr(reader, "MAX_LINE_CHARS", LINE_LIMIT)


def _long_names(line: bytes, mutation: Mutation) -> list[bytes]:
    """Every file name in the line (interned ones: the frames') made 5000 characters long, in
    its folder or (``cut`` past a half) alone, as torch shortens a library's paths."""
    bare = mutation.cut >= 0.5

    def longer(found: re.Match[bytes]) -> bytes:  # in a folder that is there: a lookup gets far
        folder = b"" if bare else found[1].rpartition(b"/")[0] + b"/"
        return b'"' + folder + b"n" * (NAME_CHARS - len(folder) - 3) + b'.py"'

    return [_PATH.sub(longer, line)]


def _huge(line: bytes, mutation: Mutation) -> list[bytes]:
    """The line padded past the limit (a record keeps its prefix, a payload line its tab)."""
    head = line[: max(1, math.floor(len(line) * mutation.cut))].rstrip(b"\r\n")
    return [head + b"h" * (LINE_LIMIT + 1) + b"\n"]


def _nul(line: bytes, mutation: Mutation) -> list[bytes]:
    """NUL bytes inside the line, where ``cut`` says."""
    at = math.floor(len(line.rstrip(b"\n")) * mutation.cut)
    return [line[:at] + b"\x00" * (1 + len(mutation.path)) + line[at:]]


def _deep(line: bytes, mutation: Mutation) -> list[bytes]:
    """JSON nested DEPTH deep: the envelope's event body, or a payload line after the line."""
    nested = b"[" * DEPTH + b"]" * DEPTH
    prefix, sep, _ = line.partition(b"] ")
    if line.startswith(b"\t") or not sep or mutation.cut < 0.5:
        return [line, b"\t" + nested + b"\n"]
    return [prefix + sep + b'{"deep": {"value": ' + nested + b"}}\n"]


_PATH = re.compile(rb'"([^"]*\.py)"')
HOSTILE_LINES = {"long_name": _long_names, "huge": _huge, "nul": _nul, "deep": _deep}


def mutated_line(line: bytes, mutation: Mutation) -> list[bytes]:
    """What the line becomes (none, one or two lines)."""
    if mutation.kind in HOSTILE_LINES:
        return HOSTILE_LINES[mutation.kind](line, mutation)
    if mutation.kind == "double":
        return [line, line]
    if mutation.kind == "cut":
        return [line[: math.floor(len(line) * mutation.cut)] + b"\n"]
    if mutation.kind == "bytes":
        raw = str(mutation.value).encode("utf-8", "surrogatepass")
        return [b"\xff\xfe\x80" + raw + b"\x00\n"]
    if line.startswith(b"\t") or b"] " not in line:
        return [b"\t" + str(mutation.value).encode("utf-8", "surrogatepass") + b"\n"]
    return [_changed_envelope(line, mutation)]


def apply_mutations(lines: list[bytes], mutations: list[Mutation]) -> list[bytes]:
    """A copy of ``lines`` with each mutation applied in turn."""
    result = list(lines)
    for mutation in mutations:
        index = mutation.line % len(result)
        result[index : index + 1] = mutated_line(result[index], mutation)
    return result


HOSTILE_TEXT = st.sampled_from(
    ["\udcff", "\x00", "a\xa0b", "c\u2028d", "\x1b[31m", "</script><script>x()</script>",
     "s0 < 1024 & 1", "L['x'].size()[0]", "Eq(s0, 3)", "0/0", "", " " * 3]
)  # fmt: skip
HOSTILE = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    HOSTILE_TEXT,
    st.text(max_size=8),
    st.none(),
    st.booleans(),
    st.lists(st.integers(min_value=-3, max_value=3), max_size=3),
    st.dictionaries(HOSTILE_TEXT, st.integers(min_value=0, max_value=3), max_size=2),
)
MUTATION = st.builds(
    Mutation,
    line=st.integers(min_value=0),
    kind=st.sampled_from(
        ["value", "value", "value", "drop_key", "cut", "double", "bytes", *HOSTILE_LINES]
    ),
    path=st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=6),
    value=HOSTILE,
    cut=st.floats(min_value=0, max_value=1),
)


def every_view(path: Path) -> None:
    """Load, summary, JSON, HTML (redacted too), why and predict: none may raise."""
    session = symdebug.load_trace(path)
    str(session)
    back = symdebug.Session.from_json(session.to_json())
    assert len(back.compiles) == len(session.compiles)
    render_html(session.facts)
    render_html(session.facts, redact=True)
    for symbol in session.symbols[:20]:
        for source in symbol.sources[:2]:
            str(session.why(str(source)))
    frames = {c.name for c in session.compiles if c.status == "ok" and c.name}
    for frame in sorted(frames)[:3]:
        str(session.predict(frame=frame))
        sources = {str(s) for sym in session.symbols for s in sym.sources}
        str(session.predict(frame=frame, **dict.fromkeys(sorted(sources)[:4], 7)))

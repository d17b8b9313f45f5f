"""Files that are no log, and lines past the limit (issue 33, point 8).

A FIFO given as the log hung the reader (it waits for a writer), ``/dev/zero`` grew
without end (one endless line), and a 500 MB single-line log peaked at 2 GB.  Files that are
not regular are now refused at once; a line of ``max_line`` characters or more is a counted
``line_too_long`` problem, read through in pieces and skipped, and the rest of the log is
read as if it were not there.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import symdebug
from symdebug.events import EventStream
from symdebug.tracefile import iter_trace_events, read_trace_file

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
PREFIX = "V1206 15:18:20.253000 1500233 torch/_logging/structured.py:22] "
#: A limit small enough to pass in a test, above the longest line of simple.log (31,540).
LIMIT = 100_000


def _summary(path: Path | str) -> subprocess.CompletedProcess[str]:
    """``symdebug summary PATH`` in a process of its own, as a user runs it."""
    command = [sys.executable, "-m", "symdebug", "summary", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def _refused(result: subprocess.CompletedProcess[str], *said: str) -> None:
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("symdebug: expected a TORCH_TRACE log file, got "), line
    for words in said:
        assert words in line, line


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "trace.log"
    os.mkfifo(fifo)  # nobody writes to it: reading would wait for good
    _refused(_summary(fifo), "a FIFO (named pipe)", str(fifo))


def test_dev_zero_is_refused_not_read_for_ever() -> None:
    _refused(_summary("/dev/zero"), "a character device", "/dev/zero")


def test_a_device_is_refused_at_call_time() -> None:
    with pytest.raises(ValueError, match="got a character device: /dev/null"):
        iter_trace_events("/dev/null", EventStream())
    with pytest.raises(IsADirectoryError, match="got a directory"):
        read_trace_file(TRACES)


def _with_lines(tmp_path: Path, extra: str) -> tuple[Path, int]:
    """simple.log with ``extra`` inserted before a record half way; the line it starts at."""
    lines = (TRACES / "simple.log").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i in range(len(lines) // 2, len(lines)) if not lines[i].startswith("\t"))
    path = tmp_path / "long.log"
    path.write_text("".join(lines[:at]) + extra + "".join(lines[at:]), encoding="utf-8")
    return path, at + 1


def _where(stream: EventStream) -> list[tuple[str, int]]:
    return [(p.kind, int(p.where.rsplit(":", 1)[1])) for p in stream.problems]


def test_a_record_past_the_limit_is_a_problem_and_the_rest_is_read(tmp_path: Path) -> None:
    payload = "its payload, which goes with it\nand its second line"
    md5 = hashlib.md5(payload.encode()).hexdigest()
    envelope = {"huge": {"x": "a" * LIMIT}, "frame_id": 0, "frame_compile_id": 0}
    record = PREFIX + json.dumps({**envelope, "has_payload": md5})
    tabs = "".join(f"\t{part}\n" for part in payload.split("\n"))
    path, line = _with_lines(tmp_path, record + "\n" + tabs)
    stream = read_trace_file(path, max_line=LIMIT)
    assert _where(stream) == [("line_too_long", line)]  # its payload lines are no orphans
    assert stream.problems[0].detail.startswith(f"a line of {LIMIT} characters or more")
    assert len(stream.problems[0].detail) < 300
    assert stream.events == read_trace_file(TRACES / "simple.log").events
    assert _where(read_trace_file(path, max_line=len(record))) == [("line_too_long", line)]
    just_under = read_trace_file(path, max_line=len(record) + 1)  # its newline fits
    assert _where(just_under) == []
    assert [e.payload for e in just_under.events if e.name == "huge"] == [payload]


def test_a_payload_line_past_the_limit_costs_only_its_payload(tmp_path: Path) -> None:
    payload = "first\n" + "b" * LIMIT + "\nlast"
    md5 = hashlib.md5(payload.encode()).hexdigest()
    envelope = {"big": {"n": 1}, "has_payload": md5}
    text = PREFIX + json.dumps(envelope) + "\n" + "".join(f"\t{p}\n" for p in payload.split("\n"))
    path, line = _with_lines(tmp_path, text)
    stream = read_trace_file(path, max_line=LIMIT)
    assert _where(stream) == [("line_too_long", line + 2), ("payload_md5", line)]
    whole = read_trace_file(TRACES / "simple.log").events
    assert [e for e in stream.events if e.name != "big"] == whole
    (big,) = [e for e in stream.events if e.name == "big"]
    assert big.payload == "first\nlast"


def test_a_file_of_one_endless_line_ends(tmp_path: Path) -> None:
    """No newline at all (as /dev/zero, or a binary file): one problem, read in pieces."""
    path = tmp_path / "one.log"
    path.write_bytes(b"\0" * (LIMIT * 5 + 7))
    stream = read_trace_file(path, max_line=LIMIT)
    assert _where(stream) == [("line_too_long", 1)]
    assert stream.events == []


def test_a_saved_session_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "run.symdebug.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="got a FIFO"):
        symdebug.load(fifo)
    with pytest.raises(ValueError, match="got a character device: /dev/zero"):
        symdebug.load("/dev/zero")

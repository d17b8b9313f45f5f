"""Tests for symdebug.tracefile.reader: the streaming TORCH_TRACE log reader, on the real logs
of tests/data/traces and on hand-written ones."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from symdebug.events import EventStream
from symdebug.tracefile import discover_trace_files, iter_trace_events, rank_of, read_trace_file

PREFIX = "V1206 15:18:20.253000 1500233 torch/_logging/structured.py:22] "
OLD_PREFIX = "V0403 07:28:48.051000 139877824898048 torch/_dynamo/utils.py:685] "

# Problems the real logs are known to have (file path relative to the traces dir).
EXPECTED_PROBLEMS = {
    # A payload line was deleted from the second chromium_event (its JSON is broken).
    "simple_corrupted_json.log": {"payload_md5": 1},
    # The exported_program payload has a blank line where torch writes a lone tab.
    "export_guard_added.log": {"payload_md5": 1},
}


def record(envelope: dict[str, Any], payload: str | None = None, prefix: str = PREFIX) -> str:
    """One record the way torch writes it (``has_payload`` computed when a payload is given)."""
    if payload is not None:
        envelope = {**envelope, "has_payload": hashlib.md5(payload.encode()).hexdigest()}
    text = prefix + json.dumps(envelope) + "\n"
    if payload is not None:
        text += "".join(f"\t{line}\n" for line in payload.split("\n"))
    return text


def write_log(tmp_path: Path, text: str, name: str = "trace.log") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


@pytest.fixture
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lenient mode: these tests feed corrupt input on purpose and expect every error to be
    counted as a problem, never raised (the suite otherwise runs with SYMDEBUG_STRICT=1)."""
    monkeypatch.setenv("SYMDEBUG_STRICT", "0")


def envelope_lines(path: Path) -> list[str]:
    """Non-payload, non-blank lines of a log, read independently of the reader."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="\n") as handle:
        lines = [line.rstrip("\r\n") for line in handle]
    return [line for line in lines if line and not line.startswith("\t")]


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# --- the real logs -------------------------------------------------------------------------


@pytest.mark.usefixtures("lenient")
def test_every_shared_log_loads(shared_traces: Path) -> None:
    files = sorted(p for p in shared_traces.rglob("*") if p.is_file())
    assert len(files) >= 15
    for path in files:
        stream = read_trace_file(path)
        assert stream.source == str(path)
        if not path.name.endswith((".log", ".log.gz")):
            continue
        rel = path.relative_to(shared_traces).as_posix()
        assert stream.problem_counts() == EXPECTED_PROBLEMS.get(rel, {}), rel
        lines = envelope_lines(path)
        n_strings = sum('] {"str": [' in line for line in lines)
        # Perfetto timing spans are not read (their payloads' MD5 is still checked).
        n_timing = sum('] {"chromium_event": ' in line for line in lines)
        assert len(stream.events) == len(lines) - n_strings - n_timing, rel
        assert len(stream.strings) == n_strings, rel


@pytest.mark.usefixtures("lenient")
def test_corrupted_log_matches_simple_log(shared_traces: Path) -> None:
    good = read_trace_file(shared_traces / "simple.log")
    bad_path = shared_traces / "simple_corrupted_json.log"
    bad = read_trace_file(bad_path)
    # Count by looking at the file: envelopes that are not JSON, payloads that are not JSON.
    lines = envelope_lines(bad_path)
    envelope_failures = sum(not is_json(line.split("] ", 1)[1]) for line in lines)
    assert bad.problem_counts().get("bad_json", 0) == envelope_failures == 0
    # The damaged payload is a Perfetto timing span's: not read, its MD5 still checked.
    assert [p.kind for p in bad.problems] == ["payload_md5"]
    assert bad.problems[0].where == f"{bad_path}:13"
    assert "chromium_event" in bad.problems[0].detail
    # Every other event is read, and alike.
    assert len(bad.events) == len(good.events) == 64 - 50
    for g, b in zip(good.events, bad.events, strict=True):
        assert (g.name, g.key, g.body, g.extra, g.payload) == (
            b.name,
            b.key,
            b.body,
            b.extra,
            b.payload,
        )
    assert bad.strings == good.strings


def test_md5_passes_on_good_log(shared_traces: Path) -> None:
    stream = read_trace_file(shared_traces / "simple.log")
    assert stream.problems == []
    with_payload = [e for e in stream.events if e.payload is not None]
    assert len(with_payload) > 5  # graphs, guards, artifacts (timing spans are not read)
    output_graph = next(e for e in stream.events if e.name == "dynamo_output_graph")
    assert "class GraphModule" in (output_graph.payload or "")
    assert not (output_graph.payload or "").startswith("\t")


def test_crlf_log_md5(shared_traces: Path) -> None:
    path = shared_traces / "multi_rank_logs" / "dedicated_log_torch_trace_rank_1.log.gz"
    with gzip.open(path, "rb") as handle:
        assert handle.readline().endswith(b"\r\n")
    stream = read_trace_file(path)
    assert stream.problems == []
    assert all("\r" not in (e.payload or "") for e in stream.events)


def test_string_interning_resolves(shared_traces: Path) -> None:
    stream = read_trace_file(shared_traces / "simple.log")
    frames = [f for e in stream.events if e.name == "dynamo_start" for f in e.body["stack"]]
    assert frames
    for frame in frames:
        assert stream.strings[frame["filename"]].endswith(".py")


def test_compile_keys_and_attempts(shared_traces: Path) -> None:
    stream = read_trace_file(shared_traces / "comp_metrics.log")
    attempts = {(e.key.compile_id, e.key.attempt) for e in stream.events if e.key}
    assert ("0/0", 0) in attempts
    assert ("0/0", 1) in attempts
    rank1_log = shared_traces / "multi_rank_logs" / "dedicated_log_torch_trace_rank_1.log.gz"
    rank1 = read_trace_file(rank1_log)
    ids = {e.key.frame_compile_id for e in rank1.events if e.key}
    assert ids == set(range(15))
    reasons = [e for e in rank1.events if e.name == "artifact:recompile_reasons"]
    assert len(reasons) == 14
    assert all(e.body["encoding"] == "json" and e.payload for e in reasons)
    chromium = read_trace_file(shared_traces / "chromium_events.log")
    keyed = [e.key for e in chromium.events if e.key]
    assert keyed
    assert all(k.compiled_autograd_id is None for k in keyed)


# --- hand-written logs ----------------------------------------------------------------------


def test_old_prefix_and_envelope_context(tmp_path: Path) -> None:
    start_frame = {"line": 3, "name": "f", "filename": 0}
    metrics_context = {"rank": 3, "compiled_autograd_id": 2, "frame_id": 0, "frame_compile_id": 1}
    artifact = {"name": "recompile_reasons", "encoding": "json"}
    text = "".join([
        record({"str": ["/a/user.py", 0]}, prefix=OLD_PREFIX),
        record({"dynamo_start": {"stack": [start_frame]}, "frame_id": 1, "frame_compile_id": 2},
               prefix=OLD_PREFIX),
        record({"compilation_metrics": {"co_name": "f"}, **metrics_context, "attempt": 4,
                "subgraph_name": "sg"}, prefix=OLD_PREFIX),
        record({"artifact": artifact, "frame_id": 0, "frame_compile_id": 1, "attempt": 0},
               '["0/0: size mismatch"]'),
        record({"torch_version": "2.13.0", "stack": [{"line": 1, "filename": 0}]}),
    ])  # fmt: skip
    stream = read_trace_file(write_log(tmp_path, text))
    assert stream.problems == []
    assert stream.strings == {0: "/a/user.py"}
    start, metrics, artifact, version = stream.events
    assert start.name == "dynamo_start"
    assert start.key is not None
    assert (start.key.compile_id, start.key.attempt) == ("1/2", 0)
    assert start.body["stack"][0]["filename"] == 0
    assert start.extra == {}
    assert metrics.key is not None
    assert (metrics.key.compile_id, metrics.key.attempt) == ("!2/0/1", 4)
    assert metrics.rank == 3
    assert metrics.extra == {"subgraph_name": "sg"}
    assert artifact.name == "artifact:recompile_reasons"
    assert json.loads(artifact.payload or "") == ["0/0: size mismatch"]
    assert version.name == "torch_version"
    assert version.body == {"value": "2.13.0"}
    assert version.key is None
    assert version.extra == {"stack": [{"line": 1, "filename": 0}]}


def test_payload_edge_cases(tmp_path: Path) -> None:
    payloads = ["", "\n", "a\n\nb", "tab\tinside\n\tindented", "cr\rinside", "crlf\r\nin\r\n"]
    payloads.append("ünïcode ✓")
    text = "".join(record({"dump": {"i": i}}, p) for i, p in enumerate(payloads))
    stream = read_trace_file(write_log(tmp_path, text))
    assert stream.problems == []
    assert [e.payload for e in stream.events] == payloads


@pytest.mark.usefixtures("lenient")
def test_wrong_md5_is_one_problem(tmp_path: Path) -> None:
    text = record({"dynamo_guards": {}, "frame_id": 0, "frame_compile_id": 0}, "[1, 2]")
    text = text.replace('"has_payload": "', '"has_payload": "0')
    text += record({"other": {}}, "fine")
    path = write_log(tmp_path, text)
    stream = read_trace_file(path)
    assert [(p.kind, p.where) for p in stream.problems] == [("payload_md5", f"{path}:1")]
    assert [e.payload for e in stream.events] == ["[1, 2]", "fine"]


@pytest.mark.usefixtures("lenient")
def test_bad_lines_are_problems(tmp_path: Path) -> None:
    text = (
        "garbage without a prefix\n"
        + PREFIX + '{"truncated": {"a": \n'
        + "\tpayload of the broken record\n"
        + PREFIX + "[1, 2]\n"
        + PREFIX + '{"str": "not a pair"}\n'
        + PREFIX + '{"frame_id": 1}\n'
        + PREFIX + '{"ev": {}, "frame_id": "x", "frame_compile_id": 0}\n'
        + PREFIX + '{"ev": {}, "frame_id": 1}\n'
        + PREFIX + '{"ev": {}, "has_payload": 5}\n'
        + "\n\n"
        + record({"ok": {"n": 1}})
        + "\torphan 1\n\torphan 2\n\n\torphan 3\n"
        + record({"str": ["f.py", 7]})
        + "\torphan after str\n"
        + PREFIX + '{"nan": {"x": NaN}}\n'
        + "x" * 1000 + "\n"
    )  # fmt: skip
    path = write_log(tmp_path, text)
    stream = read_trace_file(path)
    kinds = [(p.kind, int(p.where.rsplit(":", 1)[1])) for p in stream.problems]
    assert kinds == [
        ("bad_prefix", 1), ("bad_json", 2), ("bad_envelope", 4), ("bad_envelope", 5),
        ("bad_envelope", 6), ("bad_envelope", 7), ("bad_envelope", 8), ("bad_envelope", 9),
        ("orphan_payload", 13), ("orphan_payload", 18), ("bad_prefix", 20),
    ]  # fmt: skip
    assert all(len(p.detail) < 300 for p in stream.problems)
    assert [e.name for e in stream.events] == ["ok", "nan"]
    assert stream.strings == {7: "f.py"}


@pytest.mark.usefixtures("lenient")
def test_undecodable_bytes_do_not_raise(tmp_path: Path) -> None:
    path = tmp_path / "binary.log"
    good = record({"ok": {}}, "payload").encode()
    path.write_bytes(b"\xff\xfe\x00garbage\n" + good + bytes(range(256)) + b"\n" + good)
    stream = read_trace_file(path)
    assert [e.payload for e in stream.events] == ["payload", "payload"]
    # The 256 bytes hold a "\n" (0x0a), so they are two bad lines; the "\x00garbage" one more.
    assert stream.problem_counts() == {"bad_prefix": 3}


def _garbage(rng: random.Random) -> str:
    """A corrupt line (never starting with a tab) plus, sometimes, payload lines of its own."""
    valid = record({"junk": {"x": rng.random()}, "frame_id": 0, "frame_compile_id": 0}, "p\nq")
    head, _, tail = valid.partition("\n")
    choice = rng.randrange(6)
    if choice == 0:  # truncated record, its payload lines follow
        return head[: rng.randrange(1, len(head))] + "\n" + tail
    if choice == 1:  # random printable text
        return "".join(rng.choice("abc {}[]:\"'\\0123] V") for _ in range(rng.randrange(80))) + "\n"
    if choice == 2:  # envelope of the wrong shape
        return PREFIX + rng.choice(["[]", "1", "null", '"s"', "{}", '{"str": [1]}']) + "\n"
    if choice == 3:  # non-ASCII noise
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(40)).replace("\t", "") + "\n"
    if choice == 4:
        return "\n"
    return PREFIX + '{"a": {"b": [1, 2, {"c": ' + "\n"  # unbalanced JSON


@pytest.mark.usefixtures("lenient")
def test_fuzz_garbage_never_stops_reading(tmp_path: Path) -> None:
    rng = random.Random(1234)
    parts: list[str] = []
    expected: list[tuple[int, str | None]] = []
    for i in range(400):
        if rng.random() < 0.5:
            parts.append(_garbage(rng))
            continue
        payload = None if rng.random() < 0.3 else "\n".join(
            f"line {j} {rng.random()}" for j in range(rng.randrange(1, 6))
        )  # fmt: skip
        parts.append(record({"valid": {"i": i}, "frame_id": i, "frame_compile_id": 0}, payload))
        expected.append((i, payload))
    path = tmp_path / "fuzz.log"
    path.write_text("".join(parts), encoding="utf-8", errors="surrogatepass", newline="\n")
    stream = read_trace_file(path)
    got = [(e.body["i"], e.payload) for e in stream.events if e.name == "valid"]
    assert got == expected
    assert all(e.name == "valid" for e in stream.events)
    counts = stream.problem_counts()
    assert "payload_md5" not in counts
    assert counts.get("bad_json", 0) > 10
    assert counts.get("bad_envelope", 0) > 10


# --- streaming --------------------------------------------------------------------------------


def test_streaming_memory_stays_small(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    chunk = "".join(
        record({"big": {"i": i}, "frame_id": 0, "frame_compile_id": i}, "\n".join(["x" * 200] * 9))
        for i in range(100)
    )
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        for _ in range(50):
            handle.write(chunk)
    size = path.stat().st_size
    assert size > 9_000_000
    stream = EventStream(source=str(path))
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_trace_events(path, stream))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 5000
    assert stream.problems == []
    assert peak < size / 20, (peak, size)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a named pipe")
def test_iterator_yields_before_file_ends(tmp_path: Path) -> None:
    """The first event comes before the rest of the log exists: the file is read lazily.

    (A log that grows as the reader goes, a regular file: a FIFO is refused, as reading one
    waits for a writer; see test_hostile_files.py.)
    """
    path = tmp_path / "growing.log"
    path.write_text(record({"first": {}}), encoding="utf-8")
    events = iter_trace_events(path, EventStream())
    first = next(events)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(record({"second": {}}, "payload"))
    rest = list(events)
    assert first.name == "first"
    assert [(e.name, e.payload) for e in rest] == [("second", "payload")]


# --- discovery and ranks --------------------------------------------------------------------


def test_discover_shared_dirs(shared_traces: Path) -> None:
    messy = discover_trace_files(shared_traces / "multi_rank_messy_input")
    assert [p.name for p in messy] == [
        "dedicated_log_torch_trace_rank_0.log", "dedicated_log_torch_trace_rank_1.log",
    ]  # fmt: skip
    ranks = discover_trace_files(shared_traces / "multi_rank_logs")
    assert [rank_of(p, EventStream()) for p in ranks] == [0, 1, 2, 3]
    single = shared_traces / "simple.log"
    assert discover_trace_files(single) == [single]
    assert discover_trace_files(str(single)) == [single]


def test_discover_orders_ranks_and_reports_errors(tmp_path: Path) -> None:
    names = [
        "dedicated_log_torch_trace_rank_10_abc.log", "dedicated_log_torch_trace_rank_2_xyz.log",
        "dedicated_log_torch_trace_k3j.log", "dedicated_log_torch_trace_rank_1.log",
    ]  # fmt: skip
    for name in names:
        write_log(tmp_path, record({"ok": {}}), name)
    (tmp_path / "empty.log").touch()
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "sub.log").mkdir()
    found = [p.name for p in discover_trace_files(tmp_path)]
    assert found == [names[3], names[1], names[0], names[2]]
    with pytest.raises(FileNotFoundError, match="missing"):
        discover_trace_files(tmp_path / "missing")
    empty = tmp_path / "nothing"
    empty.mkdir()
    with pytest.raises(ValueError, match="no TORCH_TRACE logs in"):
        discover_trace_files(empty)


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nope\.log"):
        read_trace_file(tmp_path / "nope.log")
    with pytest.raises(FileNotFoundError, match=r"nope\.log"):
        iter_trace_events(tmp_path / "nope.log", EventStream())


def test_rank_of(tmp_path: Path) -> None:
    text = record({"str": ["x", 0]}) + record({"a": {}}) + record({"b": {}, "rank": 5})
    path = write_log(tmp_path, text, "dedicated_log_torch_trace_abc.log")
    stream = read_trace_file(path)
    assert rank_of(path, stream) == 5
    assert rank_of(tmp_path / "log_rank_7_q.log", stream) == 7
    assert rank_of(path, EventStream()) is None


def test_gzip_compressed_logs_read_like_plain_ones(shared_traces: Path, tmp_path: Path) -> None:
    plain = shared_traces / "simple.log"
    packed = tmp_path / "run_rank_1.log.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    (tmp_path / "notes.txt.gz").write_bytes(gzip.compress(b"not a log"))
    assert discover_trace_files(tmp_path) == [packed]
    ours, theirs = read_trace_file(packed), read_trace_file(plain)
    assert [e.name for e in ours.events] == [e.name for e in theirs.events]
    assert [e.payload for e in ours.events] == [e.payload for e in theirs.events]
    assert ours.problems == theirs.problems


def test_a_compile_attempts_events_share_one_key_and_a_reset_still_opens_a_new_one(
    tmp_path: Path,
) -> None:
    """One key object per compile attempt; grouping by that identity still sees a reset."""
    from symdebug.builders.compile_events import group_by_compile

    key = {"frame_id": 0, "frame_compile_id": 0}
    text = "".join(
        record({**key, name: body})
        for name, body in [
            ("dynamo_start", {"stack": []}),
            ("compilation_metrics", {"co_name": "f"}),
            ("dynamo_start", {"stack": []}),  # the same id after torch._dynamo.reset()
            ("compilation_metrics", {"co_name": "g"}),
        ]
    )
    events = read_trace_file(write_log(tmp_path, text)).events
    assert len({id(event.key) for event in events}) == 1
    groups = group_by_compile(events)
    assert [(g.generation, len(g.events)) for g in groups] == [(0, 2), (1, 2)]
    assert [str(g.compile_id) for g in groups] == ["0/0", "0/0@1"]

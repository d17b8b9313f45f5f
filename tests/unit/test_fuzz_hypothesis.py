"""Property: damage to a real log costs what it damaged, never the session.

Hypothesis mutates real ``TORCH_TRACE`` logs of ``tests/data`` (a value replaced by a hostile
one: an integer past 2**64, NaN or Infinity, a lone surrogate as torch writes a non-UTF-8
path, a control or line-separator character, markup, a container; a key dropped; a line cut,
doubled or replaced by raw bytes; file names of 5000 characters, a line past the reader's
limit, NUL bytes, JSON nested 100,000 deep), then every reader and view must answer: load,
the text summary, the JSON round trip, the HTML report (redacted too), ``why`` of every symbol's
sources and ``predict`` for each frame at new values.  ``make bench`` runs the same mutations
for minutes (``benchmarks/bench_fuzz.py``); ``SYMDEBUG_FUZZ_EXAMPLES`` sets the count here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from log_mutations import (
    HOSTILE_LINES,
    LOGS,
    MUTATION,
    Mutation,
    apply_mutations,
    every_view,
    read_lines,
    short_line_limit,
)

import symdebug


@pytest.fixture(autouse=True)
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lenient mode: damaged input must be counted (``bad_event``), never raised."""
    monkeypatch.setenv("SYMDEBUG_STRICT", os.environ.get("FUZZ_STRICT", "0"))
    short_line_limit(monkeypatch)  # a line past it is cheap to write: the `huge` mutation


@pytest.fixture(scope="module")
def logs() -> dict[str, list[bytes]]:
    return {name: read_lines(path) for name, path in LOGS.items()}


@settings(
    max_examples=int(os.environ.get("SYMDEBUG_FUZZ_EXAMPLES", "40")),
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(name=st.sampled_from(sorted(LOGS)), mutations=st.lists(MUTATION, min_size=1, max_size=6))
def test_mutated_real_logs_survive_every_view(
    logs: dict[str, list[bytes]], tmp_path: Path, name: str, mutations: list[Mutation]
) -> None:
    path = tmp_path / f"{name}.log"
    path.write_bytes(b"".join(apply_mutations(logs[name], mutations)))
    every_view(path)


def test_the_mutations_reach_values_and_cost_only_their_lines(tmp_path: Path) -> None:
    """A hostile value lands where it was aimed, and an undamaged log reads without problems."""
    lines = read_lines(LOGS["links"])
    mutated = apply_mutations(lines, [Mutation(1, "value", [0], 2**70, 0.0)])
    assert mutated != lines
    envelope: dict[str, Any] = json.loads(mutated[1].split(b"] ", 1)[1])
    assert 2**70 in _leaves(envelope)
    path = tmp_path / "clean.log"
    path.write_bytes(b"".join(lines))
    assert symdebug.load_trace(path).problems == {}


@pytest.mark.parametrize("kind", sorted(HOSTILE_LINES))
@pytest.mark.parametrize("name", ["inductor", "export_guards", "artifacts"])
def test_each_hostile_line_reaches_every_view(tmp_path: Path, kind: str, name: str) -> None:
    """Issue 33's hostile lines, each at a dozen lines of a real log, records and payloads:
    the reader counts what it could not read, and no fact-building step fails (a
    ``bad_event`` would say one did, and lose that compile: a file name too long to look up
    did so)."""
    lines = read_lines(LOGS[name])
    step = max(1, len(lines) // 12)
    mutations = [Mutation(at, kind, [0], None, (at % 7) / 7) for at in range(0, len(lines), step)]
    path = tmp_path / f"{name}.log"
    path.write_bytes(b"".join(apply_mutations(lines, mutations)))
    every_view(path)
    assert "bad_event" not in symdebug.load_trace(path).problems


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def with_value(lines: list[bytes], key: str, value: Any, count: int = 10**9) -> list[bytes]:
    """The log with (the first ``count``) values of ``key`` replaced (chromium events, which
    nothing reads, left alone)."""
    left = [count]

    def replace(item: Any) -> Any:
        if isinstance(item, dict):
            for name in item:
                if name == key and left[0] > 0:
                    left[0] -= 1
                    item[name] = value
                else:
                    item[name] = replace(item[name])
        elif isinstance(item, list):
            return [replace(part) for part in item]
        return item

    result = []
    for line in lines:
        prefix, sep, rest = line.partition(b"] ")
        aimed = sep and not line.startswith(b"\t") and b"chromium_event" not in rest and left[0]
        changed = json.dumps(replace(json.loads(rest))).encode() if aimed else None
        result.append(prefix + sep + changed + b"\n" if changed is not None else line)
    return result


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("line", 2**70),
        ("line", float("inf")),
        ("line", float("nan")),
        ("fail_reason", 3.5),
        ("co_name", "f\xa0\u2028\x01</script><script>"),
        ("expr", "Eq(s0, 3) & (s1 < 1024)\udcff"),
        ("co_filename", "/data/caf\udcff/train.py"),
    ],
)
def test_hostile_values_reach_every_view(tmp_path: Path, key: str, value: Any) -> None:
    """Each value the issue found crashing a load or a view, aimed at a field torch writes."""
    path = tmp_path / "hostile.log"
    lines = with_value(read_lines(LOGS["inductor"]), key, value)
    path.write_bytes(b"".join(lines))
    every_view(path)
    session = symdebug.load_trace(path)
    text = session.to_json()
    if isinstance(value, str):  # nothing lost: the text survives the JSON round trip
        assert any(value in leaf for leaf in _leaves(json.loads(text)) if isinstance(leaf, str))
        assert symdebug.Session.from_json(text).to_json() == text

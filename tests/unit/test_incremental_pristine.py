"""A rebuild from kept compiles (no torch): the facts of a full build, at every compile of a
log's stream, and the kept facts of each compile left as built (the passes run on copies)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symdebug.events import EventStream
from symdebug.incremental import IncrementalBuilder
from symdebug.model.serialize import facts_to_json
from symdebug.pipeline import build, facts_of_compiles
from symdebug.tracefile.reader import read_trace_file

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = [
    "triton/inductor_cuda_h200.log.gz",
    "traces/multi_rank_logs/dedicated_log_torch_trace_rank_3.log",
]


def _prefix(stream: EventStream, count: int) -> EventStream:
    return EventStream(
        stream.events[:count],
        stream.strings,
        source=stream.source,
        file_aliases=stream.file_aliases,
    )


def _stream(log: str, *, cells: bool) -> EventStream:
    """The log's events; with ``cells``, its frames' file named as a notebook cell."""
    stream = read_trace_file(DATA / log)
    if cells:  # every pass then runs, cell names too, and node and frame files are copied
        files = {c.filename for c in build(stream).compiles if c.filename}
        stream.file_aliases = {name: f"Cell [{n}]" for n, name in enumerate(sorted(files), 1)}
    return stream


@pytest.mark.parametrize("cells", [False, True], ids=["files", "cells"])
@pytest.mark.parametrize("log", LOGS)
def test_each_rebuild_is_a_full_build_and_keeps_compiles_as_built(log: str, cells: bool) -> None:
    stream = _stream(log, cells=cells)
    ends = [i + 1 for i, e in enumerate(stream.events) if e.name == "compilation_metrics"]
    builder = IncrementalBuilder()
    for count in [*ends, len(stream.events)]:
        part = _prefix(stream, count)
        assert facts_to_json(builder.build(part)) == facts_to_json(build(part)), count
    again = builder.build(stream)
    assert facts_to_json(again) == facts_to_json(build(stream))
    before_passes = facts_of_compiles(stream)
    for name in ("compiles", "guards", "symbols", "specializations", "fx_nodes", "graph_code"):
        kept = [
            item for fragment in builder._fragments.values() for item in getattr(fragment, name)
        ]
        assert kept == getattr(before_passes, name), name  # what the passes wrote went to copies


def test_a_rebuild_leaves_the_facts_it_returned_before_as_they_were() -> None:
    stream = read_trace_file(DATA / LOGS[0])
    builder = IncrementalBuilder()
    first = builder.build(stream)
    text = facts_to_json(first)
    builder.build(stream)
    assert facts_to_json(first) == text

"""A live session rebuilds incrementally (issue 13, point 5): at every point of a growing
stream of real events, the incremental facts are those of a full build, document for
document, and a rebuild with no new compile builds no compile again."""

from __future__ import annotations

import pytest
import torch
from programs import program

import symdebug
from symdebug.events import EventStream
from symdebug.incremental import IncrementalBuilder
from symdebug.model.serialize import facts_to_json
from symdebug.pipeline import build

PROGRAMS = [
    "graph_breaks",
    "unbacked",
    "train_step",
    "kv_cache",
    "export_dim",
    "wrapped_module",
    "zero_one",
    "duck_pair",
    "hf_gpt2",
]


def _stream(name: str) -> EventStream:
    if name == "hf_gpt2":
        pytest.importorskip("transformers")
    workload = program(name).workload
    with torch.compiler.config.patch(force_disable_caches=True), symdebug.capture() as session:
        workload()
    return session.live.handler.stream


def _prefix(stream: EventStream, count: int) -> EventStream:
    return EventStream(
        events=stream.events[:count],
        strings=stream.strings,
        problems=stream.problems,
        source=stream.source,
        file_aliases=stream.file_aliases,
        torch_version=stream.torch_version,
    )


@pytest.mark.parametrize("name", PROGRAMS)
def test_incremental_build_equals_a_full_build_at_every_step(name: str) -> None:
    stream = _stream(name)
    ends = [i + 1 for i, e in enumerate(stream.events) if e.name == "compilation_metrics"]
    points = sorted({*ends, len(stream.events) // 3, len(stream.events)})
    builder = IncrementalBuilder()
    for count in points:
        part = _prefix(stream, count)
        assert facts_to_json(builder.build(part)) == facts_to_json(build(part)), count
    # Again with nothing new: every compile's facts come from the kept ones.
    kept = dict(builder._fragments)
    again = builder.build(_prefix(stream, len(stream.events)))
    assert facts_to_json(again) == facts_to_json(build(stream))
    assert all(builder._fragments[key] is fragment for key, fragment in kept.items())

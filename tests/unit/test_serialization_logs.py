"""Sessions read from the real logs of tests/data/traces validate against the schema and
round-trip through JSON."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

import symdebug
from symdebug.model.serialize import json_schema


def test_trace_sessions_validate(shared_traces: Path) -> None:
    for path in sorted(shared_traces.glob("*.log")):
        loaded = symdebug.load_trace(path)
        assert isinstance(loaded, symdebug.Session)
        jsonschema.validate(json.loads(loaded.to_json()), json_schema())
        assert symdebug.Session.from_json(loaded.to_json()).facts == loaded.facts

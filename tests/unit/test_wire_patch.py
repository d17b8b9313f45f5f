"""The explorer's updates: a patch turns the document the view has into the new one, and
carries what a later part of the log added, not the document again (issue 13)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from patches import applied

import symdebug
from symdebug.model import json_text
from symdebug.renderers.document import wire_document
from symdebug.renderers.wire_patch import wire_patch

LOG = Path(__file__).resolve().parents[1] / "data" / "triton" / "inductor_cuda_h200.log.gz"


def _wire_of(lines: list[bytes], path: Path) -> dict:  # type: ignore[type-arg]
    path.write_bytes(b"".join(lines))
    wire = wire_document(symdebug.load_trace(path).facts)
    return json.loads(json_text.dumps(wire))  # as the view parses it


def test_a_patch_turns_the_old_document_into_the_new(tmp_path: Path) -> None:
    lines = gzip.decompress(LOG.read_bytes()).splitlines(keepends=True)
    cut = next(i for i in range(len(lines) // 2, len(lines)) if b'"dynamo_start"' in lines[i])
    old, new = _wire_of(lines[:cut], tmp_path / "a.log"), _wire_of(lines, tmp_path / "b.log")
    operations = wire_patch(old, new)
    assert applied(old, operations) == new
    assert any(op["op"] == "append" for op in operations)
    assert len(json_text.dumps(operations)) < len(json_text.dumps(new)) / 2
    assert wire_patch(new, new) == []


def test_a_different_shape_is_sent_whole() -> None:
    old = {"packed": 1, "session": {"a": 1}}
    new = {"packed": 1, "session": {"a": 1, "b": 2}}
    assert wire_patch(old, new) == [{"op": "set", "path": [], "value": new}]
    assert applied(old, wire_patch(old, new)) == new

"""An export from its TORCH_TRACE log: a compile of its own kind, with causes and fixes.

``tests/data/export/export_dim_specialized.log``: ``torch.export.export`` with
``dynamic_shapes={"x": {1: Dim("T")}}`` of a model that branches on ``x.shape[1] == 16``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import symdebug
from symdebug.builders.compile_events import group_by_compile
from symdebug.events import CompileKey, Event
from symdebug.model.values import CompileId
from symdebug.processors.export_fixes import suggested_fixes

LOG = Path(__file__).resolve().parents[1] / "data" / "export" / "export_dim_specialized.log"


def test_export_compile_id_parses() -> None:
    cid = CompileId.export(2)
    assert cid == "export/2" and cid.is_export and cid.number == 2
    assert not CompileId("0/1").is_export


def test_keyless_events_group_into_exports() -> None:
    events = [
        Event("export_start", {"function": "export"}, None),
        Event("create_symbol", {"symbol": "s0", "source": "L['x'].size()[0]"}, None),
        Event("export_end", {"error": None}, None),
        Event("dynamo_start", {}, CompileKey(0, 0)),
        Event("guard_added", {"expr": "Eq(s0, 3)"}, None),
        Event("describe_tensor", {}, None),  # torch.compile's keyless noise: no export
    ]
    groups = group_by_compile(events)
    assert [(g.compile_id, g.kind) for g in groups] == [
        ("0/0", "compile"),
        ("export/0", "export"),
        ("export/1", "export"),
    ]


def test_export_from_log_is_a_failed_export_with_dim_fix() -> None:
    session = symdebug.load_trace(LOG)
    (compile_,) = session.compiles
    assert (compile_.compile_id, compile_.kind, compile_.status) == ("export/0", "export", "failed")
    assert compile_.fail_type == "ConstraintViolationError"
    assert (Path(compile_.filename).name, compile_.lineno) == ("export_dim.py", 9)
    (spec,) = session.specializations
    assert (spec.source, spec.value, spec.cause) == (
        "L['x'].size()[1]",
        16,
        "mark_dynamic_violated",
    )
    (guard,) = session.guards
    assert guard.cause == "user_branch"
    assert guard.user_frame is not None and guard.user_frame.line == "if x.shape[1] == 16:"
    (fix,) = spec.fixes
    assert fix.code == 'dynamic_shapes={"x": {1: Dim.AUTO}}'
    ast.parse(fix.code)
    assert "accepts only x.shape[1] == 16" in fix.explanation
    assert all(x.cause != "unknown" for x in [*session.guards, *session.specializations])
    assert "export/0" in str(session)


def test_suggested_fixes_are_read() -> None:
    text = "Constraints violated (T)!\nSuggested fixes:\n  T = 16\n  U = Dim('U', max=15)\n\nThe"
    assert suggested_fixes(text) == {"T": "16", "U": "Dim('U', max=15)"}
    assert suggested_fixes("no suggestions") == {}


def test_a_log_splits_exports_where_inputs_are_described_again() -> None:
    def export() -> list[Event]:
        return [
            Event("describe_tensor", {}, None),
            Event("describe_source", {}, None),
            Event("create_symbol", {"symbol": "s0", "source": "L['x'].size()[1]"}, None),
            Event("guard_added_fast", {"expr": "Eq(s0, 16)"}, None),
        ]

    groups = group_by_compile([*export(), *export()])
    assert [(g.compile_id, len(g.events)) for g in groups] == [("export/0", 4), ("export/1", 4)]


def test_export_document_is_valid_and_reads_back() -> None:
    import json

    import jsonschema

    from symdebug.model.serialize import json_schema

    session = symdebug.load_trace(LOG)
    document = session.to_json()
    data = json.loads(document) if isinstance(document, str) else document
    jsonschema.validate(data, json_schema())
    (compile_,) = symdebug.Session.from_json(document).compiles
    assert compile_.kind == "export" and compile_.compile_id.is_export

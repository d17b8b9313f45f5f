"""What a read event keeps (issue 13, point 2): no configuration blob no fact reads, one
copy of each stack frame, and never a change to the dict torch logged."""

from __future__ import annotations

from symdebug.events import EventStream, slim_body


def test_metrics_lose_unread_configs_without_touching_torchs_dict() -> None:
    logged = {"co_name": "f", "inductor_config": "x" * 1000, "dynamo_config": '{"a": 1}'}
    slim = slim_body("compilation_metrics", logged)
    assert slim == {"co_name": "f", "dynamo_config": '{"a": 1}'}
    assert "inductor_config" in logged  # torch's record goes on to its other handlers
    other = {"inductor_config": "kept"}
    assert slim_body("artifact", other) is other


def test_identical_frames_are_one_object() -> None:
    stream = EventStream()
    frame = {"line": 3, "name": "f", "filename": 1, "loc": "y = x + 1"}
    first = {"stack": [dict(frame)], "user_stack": [dict(frame), {"line": 4}]}
    second = {"stack": [dict(frame)], "expr": "s0 > 1"}
    stream.share_frames(first)
    stream.share_frames(second)
    assert first["stack"][0] is second["stack"][0] is first["user_stack"][0]
    assert first["stack"][0] == frame and second["expr"] == "s0 > 1"
    damaged = {"stack": [{"line": [1]}, "not a frame"]}
    stream.share_frames(damaged)  # unhashable values and non-frames are kept as they are
    assert damaged["stack"] == [{"line": [1]}, "not a frame"]


def test_identical_stacks_are_one_list_and_another_stays_its_own() -> None:
    stream = EventStream()
    frame = {"line": 3, "name": "f", "filename": 1, "loc": "y = x + 1"}
    first = {"stack": [dict(frame), {"line": 9, "name": "g", "filename": 2}]}
    second = {"stack": [dict(frame), {"line": 9, "name": "g", "filename": 2}]}
    other = {"stack": [dict(frame), {"line": 10, "name": "g", "filename": 2}]}
    for body in (first, second, other):
        stream.share_frames(body)
    assert first["stack"] is second["stack"]
    assert other["stack"] is not first["stack"] and other["stack"][0] is first["stack"][0]
    assert other["stack"][1] == {"line": 10, "name": "g", "filename": 2}

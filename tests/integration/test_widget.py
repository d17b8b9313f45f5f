"""The explorer widget: Predict and Run driven through the widget model, errors shown."""

from __future__ import annotations

import json

import torch

import symdebug
from symdebug.notebook.widget import Explorer, parse_arguments
from symdebug.renderers.document import unpack


def f(x, n: int):
    if x.shape[0] > 4:
        x = x * 2
    return x.sum() * n


def test_arguments_from_the_view() -> None:
    assert parse_arguments("[[17, 64], 3]") == ([(17, 64), 3], {})
    assert parse_arguments('{"x": [8, 2], "xs": [[1, 2], [3, 4]]}') == (
        [],
        {"x": (8, 2), "xs": [(1, 2), (3, 4)]},
    )


def test_predict_and_run_through_the_model() -> None:
    with symdebug.capture() as session:
        compiled = torch.compile(f, backend="eager", dynamic=True)
        compiled(torch.randn(8, 3), 2)
    widget = symdebug.explorer(session, compiled)
    assert isinstance(widget, Explorer)
    assert unpack(json.loads(widget.session_json))["compiles"][0]["name"] == "f"
    widget.request = {"action": "predict", "frame": "f", "args": "[[3, 3], 2]", "id": 1}
    assert widget.error == ""
    assert (
        "recompiles" in widget.results[-1]["text"] and "user_branch" in widget.results[-1]["text"]
    )
    widget.request = {"action": "run", "frame": "f", "args": "[[3, 3], 2]", "id": 2}
    assert widget.error == ""
    assert (
        "recompiled as 0/1" in widget.results[-1]["text"]
        and "prediction held" in widget.results[-1]["text"]
    )
    document = unpack(json.loads(widget.session_json))  # the wire the view gets
    assert len(document["compiles"]) == 2  # the view sees the new compile
    (runs,) = document["sweeps"]  # and the run, for the sizes pane
    assert runs["axis"] == "runs" and runs["recompiled"] == [True] and runs["actual"] == ["0/1"]


def test_errors_are_shown_in_the_widget() -> None:
    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
    widget = symdebug.explorer(session)  # no compiled function: Run cannot work
    widget.request = {"action": "run", "frame": "f", "args": "[[3, 3], 2]", "id": 1}
    assert "Run needs the compiled function" in widget.error
    widget.request = {"action": "predict", "frame": "f", "args": "[[3, 3", "id": 2}
    assert "JSONDecodeError" in widget.error
    assert widget.results == []


def test_verify_fixes_replays_the_workload_and_resends_the_verdicts() -> None:
    def workload() -> list[torch.Tensor]:
        compiled = torch.compile(lambda x: (x * 2).sum(0), backend="eager")
        return [compiled(torch.ones(n, 3)) for n in (4, 8, 16)]

    with symdebug.capture() as session:
        workload()
    assert not symdebug.explorer(session).can_verify  # no workload, no button
    widget = symdebug.explorer(session, workload=workload)
    assert widget.can_verify
    widget.request = {"action": "verify", "args": "", "id": 1}
    assert widget.error == ""
    assert "verified by replay" in widget.results[-1]["text"]
    document = unpack(json.loads(widget.session_json))
    verdicts = [f for r in document["recompiles"] for f in r["fixes"] if f["verified"]]
    assert verdicts and verdicts[0]["effect"] == "2 -> 1 compiles"


def test_a_path_that_is_not_utf8_reaches_the_view() -> None:
    """Torch writes such a path with a lone surrogate; the wire keeps it (escaped JSON)."""
    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
    session.facts.compiles[0].filename = "/data/caf\udcff/train.py"
    widget = symdebug.explorer(session)
    compiles = unpack(json.loads(widget.session_json))["compiles"]
    assert compiles[0]["filename"] == "/data/caf\udcff/train.py"

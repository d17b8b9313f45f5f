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


class Recorded(Explorer):
    """The explorer, keeping what it sends to the views."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.sent: list[dict[str, object]] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def send(self, content: dict[str, object], buffers: object = None) -> None:  # type: ignore[override]
        self.sent.append(content)
        super().send(content, buffers)  # type: ignore[arg-type]


def viewed(widget: Recorded) -> dict[str, object]:
    """The document a view shows: the whole one it got, then each patch applied."""
    from patches import applied

    wire = json.loads(widget.session_json)
    for patch in widget.sent[widget.base_revision :]:
        wire = applied(wire, json.loads(str(patch["operations"])))
    return unpack(wire)


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
    assert isinstance(symdebug.explorer(session, compiled), Explorer)
    widget = Recorded(session, compiled)
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
    document = viewed(widget)  # what the view shows: the document, then the patches
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
    assert widget.error.startswith("predict: the arguments '[[3, 3' are not JSON")
    assert widget.results == []


def test_arguments_that_are_not_json_get_a_readable_message() -> None:
    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
    widget = symdebug.explorer(session)
    for text in ("hello", "((3, 3), 2)", "[[3, 3], 2"):
        widget.request = {"action": "predict", "frame": "f", "args": text, "id": 1}
        assert widget.error.startswith(f"predict: the arguments {text!r} are not JSON (")
        assert "JSONDecodeError" not in widget.error and "Expecting" not in widget.error
        assert "[[17, 64], 3]" in widget.error  # the form to write instead
    assert "no tuples" in parse_error("((3, 3), 2)") and "no tuples" not in parse_error("hello")
    assert widget.results == []


def parse_error(text: str) -> str:
    """The message of the arguments ``text``, which are not JSON."""
    from symdebug.notebook.widget import ArgumentsError

    try:
        parse_arguments(text)
    except ArgumentsError as error:
        return str(error)
    raise AssertionError(f"{text!r} parsed")


def test_predict_that_leaves_out_an_argument_names_it() -> None:
    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
    widget = symdebug.explorer(session)
    for text in ("[[3, 3]]", '{"x": [3, 3]}'):
        widget.request = {"action": "predict", "frame": "f", "args": text, "id": 1}
        assert widget.error == ""
        shown = widget.results[-1]["text"]
        head = shown.splitlines()[0]
        assert "recompiles unless the n the call leaves out changes it" in head  # not sure
        assert "the call gives no n, which f() takes" in shown


def test_verify_fixes_replays_the_workload_and_resends_the_verdicts() -> None:
    def workload() -> list[torch.Tensor]:
        compiled = torch.compile(lambda x: (x * 2).sum(0), backend="eager")
        return [compiled(torch.ones(n, 3)) for n in (4, 8, 16)]

    with symdebug.capture() as session:
        workload()
    assert not symdebug.explorer(session).can_verify  # no workload, no button
    widget = Recorded(session, workload=workload)
    assert widget.can_verify
    # Run needs the compiled function: hidden where only a workload was given (issue 46, 24)
    assert not widget.can_run
    assert symdebug.explorer(session, torch.compile(lambda x: x, backend="eager")).can_run
    widget.request = {"action": "verify", "args": "", "id": 1}
    assert widget.error == ""
    assert "verified by replay" in widget.results[-1]["text"]
    document = viewed(widget)
    verdicts = [f for r in document["recompiles"] for f in r["fixes"] if f["verified"]]
    assert verdicts and verdicts[0]["effect"] == "measured: 2 -> 1 compiles"


def test_hunt_replays_the_workload_and_sends_the_rows() -> None:
    compiled = torch.compile(lambda x: (x * 2).sum(0), backend="eager")

    def workload() -> list[torch.Tensor]:
        return [compiled(torch.ones(n, 3)) for n in (4, 8, 16)]

    with symdebug.capture() as session:
        workload()
    widget = Recorded(session, workload=workload)
    widget.request = {"action": "hunt", "args": "", "id": 1}
    assert widget.error == "" and widget.results[-1]["text"].startswith("Hunt: 1 avoidable (1")
    rows = viewed(widget)["hunt"]
    assert next((r["user_name"], r["verdict"]) for r in rows) == ("x.shape[0]", "avoidable")


def test_a_path_that_is_not_utf8_reaches_the_view() -> None:
    """Torch writes such a path with a lone surrogate; the wire keeps it (escaped JSON)."""
    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
    session.facts.compiles[0].filename = "/data/caf\udcff/train.py"
    widget = symdebug.explorer(session)
    compiles = unpack(json.loads(widget.session_json))["compiles"]
    assert compiles[0]["filename"] == "/data/caf\udcff/train.py"


def test_later_compiles_reach_the_view_as_patches() -> None:
    from patches import applied

    from symdebug.model import json_text
    from symdebug.renderers.document import wire_document

    def g(x):  # type: ignore[no-untyped-def]
        return x.view(-1, 2).sum(0)

    with symdebug.capture() as session:
        torch.compile(f, backend="eager", dynamic=True)(torch.randn(8, 3), 2)
        widget = Recorded(session)
        whole = widget.session_json
        torch.compile(g, backend="eager")(torch.randn(8))
        widget.refresh()
        widget.refresh()  # nothing new: nothing sent
    assert widget.session_json == whole and widget.revision == 1
    (patch,) = widget.sent
    assert patch["type"] == "patch" and patch["from"] == 0
    operations = json.loads(str(patch["operations"]))
    now = json.loads(json_text.dumps(wire_document(session.facts)))
    assert applied(json.loads(whole), operations) == now
    assert len(str(patch["operations"])) < len(whole)
    widget._on_message(widget, {"type": "resend"}, [])  # a view that missed the patch
    assert json.loads(widget.session_json) == now and widget.base_revision == 1


def test_a_function_defined_again_is_chosen_by_its_frame_id() -> None:
    """The view offers each definition of a name by frame id; Python answers for that one."""
    from symdebug.notebook.widget import frame_asked

    assert (frame_asked("f"), frame_asked("3"), frame_asked("-1"), frame_asked("")) == (
        "f",
        3,
        -1,
        None,
    )
    torch._dynamo.reset()
    namespace: dict[str, object] = {}
    with symdebug.capture() as session:
        for threshold in (4, 100):  # the same name, defined twice (a re-run cell)
            exec(f"def g(x):\n    return x * 2 if x.shape[0] > {threshold} else x + 1\n", namespace)
            torch.compile(namespace["g"], backend="eager", dynamic=True)(torch.randn(8))
    first, second = sorted({c.frame_id for c in session.compiles if c.name == "g"})
    widget = Recorded(session)
    widget.request = {"action": "predict", "frame": str(first), "args": "[[3]]", "id": 1}
    assert widget.error == "" and "recompiles" in widget.results[-1]["text"]  # 3 > 4 fails
    widget.request = {"action": "predict", "frame": str(second), "args": "[[3]]", "id": 2}
    assert widget.error == "" and "served by" in widget.results[-1]["text"]  # 3 <= 100

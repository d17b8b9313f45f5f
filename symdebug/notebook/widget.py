"""The notebook explorer: the report viewer as a widget, with Predict, Run and Verify fixes.

The view is the same bundle as the HTML report (built as an ES module for anywidget); the
Python side answers the view's requests with :meth:`Session.predict`,
:meth:`Session.rerun` and ``fix_plan`` (when a workload was given).  A failure is shown in
the widget, never raised into the kernel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import anywidget
import traitlets

from symdebug.api import Session
from symdebug.facts_session import NOT_LIVE
from symdebug.live import LiveSession
from symdebug.live.fix_plan import fix_plan
from symdebug.model import json_text
from symdebug.notebook.compiled import compiled_in
from symdebug.renderers.document import wire_document
from symdebug.renderers.notebook import mime_bundle
from symdebug.renderers.wire_patch import wire_patch


def _shapes(value: Any) -> Any:
    """JSON from the view -> call arguments: a list of ints is a shape (a tuple)."""
    if isinstance(value, list):
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return tuple(value)
        return [_shapes(v) for v in value]
    if isinstance(value, dict):
        return {k: _shapes(v) for k, v in value.items()}
    return value


#: How the view's arguments are written, for a message about text that is not JSON.
ARGUMENTS_FORM = (
    "write them as JSON: a list of the arguments, [[17, 64], 3] (a list of ints is a shape),"
    ' or an object by name, {"x": [17, 64], "n": 3}'
)


class ArgumentsError(ValueError):
    """The view's arguments are not JSON: the message says where and how to write them."""


def _not_json(text: str, error: json.JSONDecodeError) -> ArgumentsError:
    """A message people read: the text, where it went wrong, and the form it should have."""
    where = (
        f"column {error.colno}"
        if error.lineno == 1
        else f"line {error.lineno}, column {error.colno}"
    )
    problem = error.msg[0].lower() + error.msg[1:]
    hint = " (JSON has no tuples or single quotes)" if any(c in text for c in "()'") else ""
    return ArgumentsError(
        f"the arguments {text!r} are not JSON ({problem} at {where}){hint}: {ARGUMENTS_FORM}"
    )


def parse_arguments(text: str) -> tuple[list[Any], dict[str, Any]]:
    """``[[17, 64], 3]`` or ``{"x": [17, 64]}`` -> positional and keyword arguments.

    Raises :class:`ArgumentsError` (a readable message) for text that is not JSON.
    """
    try:
        value = json.loads(text or "[]")
    except json.JSONDecodeError as error:
        raise _not_json(text, error) from None
    if isinstance(value, dict):
        return [], {k: _shapes(v) for k, v in value.items()}
    if not isinstance(value, list):
        value = [value]
    return [_shapes(v) for v in value], {}


def failure_text(action: str, error: Exception) -> str:
    """What the view shows when a request fails: our own messages need no exception name."""
    if isinstance(error, ArgumentsError):
        return f"{action}: {error}"
    return f"{action} failed: {type(error).__name__}: {error}"


def frame_asked(value: object) -> str | int | None:
    """The view's frame choice: a name, or a frame id (a function defined again) as text."""
    if not value:
        return None
    text = str(value)
    return int(text) if text.lstrip("-").isdigit() else text  # no frame name is a number


class Explorer(anywidget.AnyWidget):
    """The session explorer widget: the report viewer with Predict, Run and Verify fixes.

    Parameters
    ----------
    session
        The session to show (a live one follows later compiles on ``refresh``).
    compiled
        What ``torch.compile`` returned: Run calls it.
    workload
        A no-argument callable that makes the calls again: enables Verify fixes.
    namespace
        Where Run finds the compiled function of the chosen frame when ``compiled`` is None
        (``%symdebug`` passes the notebook's names): matched by the frame's code object.
    """

    _esm = resources.files("symdebug").joinpath("_static/widget.mjs").read_text(encoding="utf-8")
    session_json = traitlets.Unicode("{}").tag(sync=True)
    request = traitlets.Dict().tag(sync=True)
    results: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    can_verify = traitlets.Bool(False).tag(sync=True)
    #: Whether Run can work: a live session, and what torch.compile returned (given, or
    #: the notebook's names to find it in).  Run is hidden otherwise, as Verify is.
    can_run = traitlets.Bool(False).tag(sync=True)
    #: How many patches were sent; ``session_json`` holds the document of ``base_revision``.
    #: A view that finds ``revision`` ahead of its own asks for the whole document again.
    revision = traitlets.Int(0).tag(sync=True)
    base_revision = traitlets.Int(0).tag(sync=True)

    def __init__(
        self,
        session: Session,
        compiled: Any = None,
        workload: Any = None,
        namespace: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.compiled = compiled
        #: Where Run looks for what torch.compile returned (a notebook's names), when no
        #: ``compiled`` was given: the explorer of ``%symdebug`` runs any frame it saw.
        self.namespace = namespace
        self.workload = workload
        self.can_verify = workload is not None
        live = isinstance(session, LiveSession)
        self.can_run = live and (compiled is not None or namespace is not None)
        self._wire: dict[str, Any] | None = None  # the document the views have
        self.on_msg(self._on_message)
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget view, plus the static report and the session JSON as fallbacks."""
        bundle = super()._repr_mimebundle_(**kwargs)
        widget, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        data = {**widget, **mime_bundle(self.session.facts)}
        return (data, metadata) if metadata else data

    def refresh(self, *_: Any) -> None:
        """Send what changed (later cells compiled more): the whole document once, then patches.

        A patch (:func:`~symdebug.renderers.wire_patch.wire_patch`) carries the new rows and
        the values that changed, not the document again.
        """
        wire = wire_document(self.session.facts)
        if self._wire is None:
            self._send_whole(wire)
            return
        operations = wire_patch(self._wire, wire)
        if operations:
            self._wire = wire
            text = json_text.dumps(operations).decode()
            self.send({"type": "patch", "from": self.revision, "operations": text})
            self.revision += 1

    def _send_whole(self, wire: dict[str, Any]) -> None:
        self._wire = wire
        self.session_json = json_text.dumps(wire).decode()
        self.base_revision = self.revision

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A view that missed patches (shown again, or reloaded) asks for the whole document."""
        if isinstance(content, dict) and content.get("type") == "resend":
            self._send_whole(wire_document(self.session.facts))

    def _verify(self) -> str:
        """Replay the workload under each fix; the document then shows the verdicts."""
        if self.workload is None:
            raise ValueError("Verify needs a workload: symdebug.explorer(s, workload=fn)")
        return str(fix_plan(self.workload, self.session, progress=False))

    def _hunt(self) -> str:
        """Replay the workload once per constant kept symbolic; the hunt tab then shows it."""
        if self.workload is None:
            raise ValueError("Hunt needs a workload: symdebug.explorer(s, workload=fn)")
        if not isinstance(self.session, LiveSession):  # read from a log: the guards decide
            return str(self.session.hunt())
        return str(self.session.hunt(self.workload, progress=False))

    @traitlets.observe("request")
    def _on_request(self, change: dict[str, Any]) -> None:
        request = change["new"] or {}
        try:
            text = self._answer(request)
        except Exception as error:  # noqa: BLE001 - shown in the widget, the kernel lives on
            self.error = failure_text(str(request.get("action", "?")), error)
            return
        self.error = ""
        entry = {"id": request.get("id", 0), "action": request.get("action", ""), "text": text}
        self.results = [*self.results, entry]
        self.refresh()

    def _compiled(self, frame: str | int | None) -> Any:
        """The compiled function to Run: the one given, else the frame's, by its code."""
        if self.compiled is not None:
            return self.compiled
        if self.namespace is None:
            raise ValueError("Run needs the compiled function: symdebug.explorer(s, compiled)")
        return compiled_in(self.namespace, self.session, frame)

    def _answer(self, request: dict[str, Any]) -> str:
        args, kwargs = parse_arguments(str(request.get("args", "")))
        frame = frame_asked(request.get("frame"))
        if request.get("action") == "verify":
            return self._verify()
        if request.get("action") == "hunt":
            return self._hunt()
        if request.get("action") == "predict":
            return str(self.session.predict(*args, frame=frame, **kwargs))
        if request.get("action") == "run":
            compiled = self._compiled(frame)
            if not isinstance(self.session, LiveSession):  # read from a file: nothing to run
                raise ValueError(NOT_LIVE)
            result = self.session.rerun(compiled, *args, frame=frame, **kwargs)
            self.session.record_run(str(request.get("args", "")), result)
            return str(result)
        raise ValueError(f"unknown action {request.get('action')!r}")

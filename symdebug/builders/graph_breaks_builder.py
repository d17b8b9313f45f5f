"""The graph breaks of one compile, from torch's ``dynamo_graph_break_reason`` artifacts.

Torch writes the reason before it restarts the frame (attempt 0), as text: a headline
``Graph break in user code at file:line``, ``Graph Break Reason: ...`` with an explanation
and hints, the user's traceback, then Dynamo's own.  A frame torch skipped for good
(``fail_type`` set, it runs eagerly) is a break without a resume frame; when torch logged no
reason for it, its compile metrics say what they know.

The user's traceback also holds the calls that led to the compiled frame; the break's user
and library lines are found inside the compiled frame (``torchtext/break_frames.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from symdebug.builders.compile_group import CompileEvents
from symdebug.model.types import Compile, Frame, GraphBreak
from symdebug.model.values import CompileId
from symdebug.torchtext.break_frames import placed
from symdebug.torchtext.data_dependent import expression_of, failed_compile_break
from symdebug.torchtext.frames import traceback_frames

REASON_EVENT = "artifact:dynamo_graph_break_reason"
#: Lines of the reason that say how torch handled the break, not what broke it.
_HANDLING = ("Encountered graph break", "Failed to handle graph break gracefully")
SKIPPING = "Skipping the function"
#: Where Dynamo raises ``Unsupported``: plumbing, not the frame that gave up.
_RAISING = "_dynamo/exc.py"


def _sections(payload: str) -> tuple[str, str, str]:
    """(reason text, user traceback, Dynamo traceback) of one artifact's payload."""
    head, _, rest = payload.partition("User code traceback:")
    user, _, framework = rest.partition("Traceback (most recent call last):")
    reason = head.partition("Graph Break Reason:")[2] or head
    return reason.strip(), user, framework


def _headline(reason: str) -> tuple[str, str]:
    """Torch's headline and the rest (explanation, hints), without how it handled it."""
    lines = [line for line in reason.splitlines() if not line.startswith(_HANDLING)]
    text = "\n".join(lines).strip()
    first, _, rest = text.partition("\n")
    return first.strip(), _without_links(rest)


def _without_links(text: str) -> str:
    """The explanation, without the debug context and the web page (noise in every view)."""
    kept = [
        line.rstrip()
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith(("Developer debug", "For more details"))
    ]
    return "\n".join(kept)


def _lines(stack: list[Frame], compiled: Compile | None) -> tuple[Frame | None, Frame | None]:
    """``(user line, library line)`` of a break, inside the compiled frame when it is known."""
    if compiled is None:
        return placed(stack, None, None)
    return placed(stack, compiled.name, compiled.filename)


def break_of(
    compile_id: CompileId, payload: str, *, failed: bool, compiled: Compile | None = None
) -> GraphBreak:
    """One break from the text of a ``dynamo_graph_break_reason`` artifact.

    ``compiled`` is the compile the break ended: the lines are looked for inside its frame.
    """
    reason_text, user_text, framework_text = _sections(payload)
    headline, explanation = _headline(reason_text)
    user_stack = traceback_frames(user_text)
    user, library = _lines(user_stack, compiled)
    framework = [f for f in traceback_frames(framework_text) if not f.filename.endswith(_RAISING)]
    return GraphBreak(
        compile_id=compile_id,
        reason=headline or "graph break",
        explanation=explanation,
        user_frame=user,
        user_stack=user_stack,
        framework_frame=framework[-1] if framework else None,
        skipped=failed or SKIPPING in reason_text,
        expression=expression_of(framework_text),
        library_frame=library,
    )


def _skipped_without_reason(
    compile_id: CompileId, metrics: Mapping[str, Any], compiled: Compile | None
) -> GraphBreak:
    """A frame torch skipped (``Unsupported``) whose reason artifact was not logged."""
    headline, explanation = _headline(str(metrics.get("fail_reason") or ""))
    filename = metrics.get("fail_user_frame_filename")
    lineno = metrics.get("fail_user_frame_lineno")
    stack = [Frame(str(filename), int(lineno), "")] if filename and lineno else []
    user, library = _lines(stack, compiled)
    return GraphBreak(
        compile_id=compile_id,
        reason=headline or str(metrics.get("fail_type")),
        explanation=explanation,
        user_frame=user,
        user_stack=stack,
        skipped=True,
        library_frame=library,
    )


def build_graph_breaks(group: CompileEvents, compiled: Compile | None = None) -> list[GraphBreak]:
    """The breaks of one compile (``compiled``): one per distinct reason and line torch logged."""
    metrics_event = group.last("compilation_metrics")
    metrics: Mapping[str, Any] = metrics_event.body if metrics_event is not None else {}
    failed = metrics.get("fail_type") == "Unsupported"
    breaks: dict[tuple[str, str], GraphBreak] = {}
    for event in group.named(REASON_EVENT):
        found = break_of(group.compile_id, event.payload or "", failed=failed, compiled=compiled)
        breaks.setdefault((found.reason, found.where), found)
    if failed and not breaks:
        return [_skipped_without_reason(group.compile_id, metrics, compiled)]
    data_dependent = failed_compile_break(group.compile_id, metrics) if not breaks else None
    return [data_dependent] if data_dependent is not None else list(breaks.values())

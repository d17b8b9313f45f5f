"""What a ``torch.export`` call adds to its Compile record: where it was called, its outcome.

An export has no Dynamo frame: its "compile" is the call itself (``export/<n>``).  The live
capture brackets it with ``export_start``/``export_end`` (the error torch raised); a log holds
only the shape environment's events, and ``exported_program`` when it succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symdebug.builders.compile_group import CompileEvents
from symdebug.model.types import Frame
from symdebug.model.values import CompileStatus, Source
from symdebug.torchtext.frames import FrameReader, is_torch_file

#: torch's message for a ``Dim`` the program fixed (``UserError``, ``CONSTRAINT_VIOLATION``).
VIOLATION = "Constraints violated"
VIOLATION_TYPE = "ConstraintViolationError"
#: The capture's own wrapper around ``torch.export.export`` (not the user's frame).
_HOOK = "symdebug/hooks/export_hook.py"
#: Said when a log shows a requested ``Dim`` specialized and no program exported.
INFERRED = (
    "Constraints violated: a size export was asked to keep dynamic was specialized, and the "
    "log holds no exported program (the message itself is not logged)."
)


@dataclass(slots=True)
class ExportOutcome:
    """The fields of an export's Compile that its events say."""

    name: str = "export"
    filename: str = ""
    lineno: int = 0
    status: CompileStatus = "incomplete"
    fail_type: str | None = None
    fail_reason: str | None = None
    marked_dynamic: list[Source] = field(default_factory=list)


def export_outcome(group: CompileEvents, reader: FrameReader) -> ExportOutcome:
    """The call site, the dims asked dynamic, and how the export ended."""
    outcome = ExportOutcome(marked_dynamic=_requested(group))
    call = _call_site(group, reader)
    if call is not None:
        outcome.filename, outcome.lineno = call.filename, call.lineno
    start = group.last("export_start")
    if start is not None:
        outcome.name = str(start.body.get("function") or "export")
    _set_status(outcome, group)
    return outcome


def _requested(group: CompileEvents) -> list[Source]:
    """Sizes the export was asked to keep dynamic: each got a symbol from its input."""
    found = [e.body.get("source") for e in group.named("create_symbol")]
    return list(dict.fromkeys(Source(str(s)) for s in found if s))


def _call_site(group: CompileEvents, reader: FrameReader) -> Frame | None:
    """The user's frame that called into ``torch.export`` (outermost stack of any event)."""
    start = group.last("export_start")
    caller = start.body.get("caller") if start is not None else None
    if isinstance(caller, dict) and caller.get("filename"):
        return reader.frame(caller)
    for event in group.events:
        stack: Any = event.body.get("stack") if isinstance(event.body, dict) else None
        frames = reader.frames(stack) if stack else []
        user: Frame | None = None
        for frame in frames:
            if is_torch_file(frame.filename) or _HOOK in frame.filename:
                return user
            user = frame
    return None


def _set_status(outcome: ExportOutcome, group: CompileEvents) -> None:
    end = group.last("export_end")
    if group.named("exported_program") or (end is not None and not end.body.get("error")):
        outcome.status = "ok"
        report = end.body.get("report") if end is not None else None
        if report and _specialized(group, outcome.marked_dynamic):
            # draft_export exported unsoundly: its report says what export would refuse.
            outcome.fail_type, outcome.fail_reason = VIOLATION_TYPE, str(report)
    elif end is not None:
        reason = str(end.body.get("error"))
        outcome.status = "failed"
        outcome.fail_reason = reason
        violated = reason.startswith(VIOLATION)
        outcome.fail_type = VIOLATION_TYPE if violated else str(end.body.get("type"))
    elif _specialized(group, outcome.marked_dynamic):
        outcome.status = "failed"
        outcome.fail_type, outcome.fail_reason = VIOLATION_TYPE, INFERRED


def _specialized(group: CompileEvents, requested: list[Source]) -> bool:
    """Whether a requested size was made a constant (a ``Dim`` export refuses)."""
    for event in group.named("symbolic_shape_specialization"):
        if any(Source(str(s)) in requested for s in event.body.get("sources") or []):
            return True
    return False


def export_user_stack(stack: Any, reader: FrameReader) -> list[Frame]:
    """The model's own frames of an export event's stack (its ``user_stack`` is empty).

    They are the frames outside torch below the call into ``torch.export``: the caller's
    frames above it, and torch's generated code (``<string>``), are not the model's.
    """
    frames = reader.frames(stack) if stack else []
    entered = next((i for i, f in enumerate(frames) if is_torch_file(f.filename)), len(frames))
    return [
        frame
        for frame in frames[entered:]
        if not is_torch_file(frame.filename) and not frame.filename.startswith("<string")
    ]

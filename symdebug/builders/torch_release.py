"""Which torch wrote a stream, and so which release's tables read it.

A live capture knows the torch it runs in.  A log says it in its first record (the
``torch_version`` artifact, ``{"pytorch_version": "2.15.0+cu132", ...}``) and again in each
compile's metrics (``pytorch_version``).  A log that says neither (cut, or written by an
older torch) is matched to the release whose frames its stacks show; failing that, it is
read with the oldest release's tables, and the session says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from symdebug._torch.releases import NEWEST, ReleaseChoice, chosen, infer_release
from symdebug.events import Event, EventStream
from symdebug.model import json_text
from symdebug.model.types import TorchRun

#: The artifact every release symdebug knows opens a log with (the newest's name for it).
VERSION_ARTIFACT = f"artifact:{NEWEST.records.version_artifact}"
#: How many stacks an inference reads: the fingerprint frames are on every guard's stack.
_STACKS_READ = 64


def _recorded(event: Event) -> str:
    """The version an event records, or ``""``."""
    if event.name == VERSION_ARTIFACT and event.payload:
        try:
            document = json_text.loads(event.payload)
        except ValueError:
            return ""
        return str(document.get("pytorch_version") or "") if isinstance(document, dict) else ""
    if event.name == "compilation_metrics":
        return str(event.body.get("pytorch_version") or "")
    return ""


def _stack_frames(stream: EventStream) -> Iterator[tuple[str, str, int]]:
    """``(file, function, line)`` of the frames of the stream's first stacks."""
    stacks = (e.body.get("stack") for e in stream.events if isinstance(e.body, dict))
    for stack in islice((s for s in stacks if isinstance(s, list)), _STACKS_READ):
        for frame in stack:
            yield _frame(frame, stream.strings)


def _frame(frame: Any, strings: dict[int, str]) -> tuple[str, str, int]:
    if not isinstance(frame, dict):
        return ("", "", 0)
    name = frame.get("filename")
    path = strings.get(name, "") if isinstance(name, int) else str(name or "")
    line = frame.get("line")
    return (path.replace("\\", "/"), str(frame.get("name") or ""), line if type(line) is int else 0)


def stream_release(stream: EventStream) -> ReleaseChoice:
    """The release whose tables read ``stream``, and how its torch was known."""
    if stream.torch_version:
        return chosen(stream.torch_version, "running")
    version = next(filter(None, map(_recorded, stream.events)), "")
    if version:
        return chosen(version, "recorded")
    inferred = infer_release(_stack_frames(stream))
    if inferred is not None:
        return ReleaseChoice(inferred, "", "inferred")
    return chosen(None, "assumed")


def torch_run(choice: ReleaseChoice) -> TorchRun:
    """The facts' record of the choice."""
    return TorchRun(choice.version, choice.release.name, choice.known)

"""Stack frames from trace events: resolve interned filenames, split user and framework."""

from __future__ import annotations

import linecache
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from symdebug.model.types import Frame

#: Innermost frames that are guard plumbing, not the reason a guard exists.
_PLUMBING = (
    "torch/_logging/",
    "torch/fx/experimental/symbolic_shapes.py",
    "torch/fx/experimental/sym_node.py",
    "torch/fx/experimental/recording.py",
    "torch/__init__.py",
    "torch/_subclasses/fake_tensor.py",
    "torch/utils/_stats.py",
    "torch/_dynamo/utils.py:wrap_fake_exception",
    "torch/_inductor/sizevars.py",
)
FRAMEWORK_FRAMES_KEPT = 12


def is_torch_file(filename: str) -> bool:
    """Whether a path lies inside the torch package (absolute or torch's short form)."""
    normalized = filename.replace("\\", "/")
    return "/torch/" in normalized or normalized.startswith("torch/")


def to_frame(raw: Mapping[str, Any], strings: Mapping[int, str]) -> Frame:
    """One torch frame dict (``{"filename": id, "line", "name", "loc"}``) as a Frame."""
    filename = raw.get("filename", "")
    if isinstance(filename, int):
        filename = strings.get(filename, f"<interned {filename}>")
    lineno = int(raw.get("line") or 0)
    line = raw.get("loc")
    if not line:  # torch leaves it empty when its own line lookup failed; try once more
        line = linecache.getline(str(filename), lineno).strip()
    return Frame(str(filename), lineno, str(raw.get("name", "")), str(line or ""))


def to_frames(raw: Sequence[Mapping[str, Any]] | None, strings: Mapping[int, str]) -> list[Frame]:
    """A whole stack, outermost first (entries that are not frames are skipped)."""
    if not isinstance(raw, list | tuple):
        return []
    return [to_frame(item, strings) for item in raw if isinstance(item, Mapping)]


def _is_plumbing(frame: Frame) -> bool:
    where = frame.filename.replace("\\", "/") + ":" + frame.name
    return any(part in where for part in _PLUMBING)


def framework_frames(stack: list[Frame]) -> list[Frame]:
    """The torch frames below the last non-torch frame, without the guard plumbing tail."""
    start = 0
    for index, frame in enumerate(stack):
        if not is_torch_file(frame.filename):
            start = index + 1
    frames = stack[start:]
    end = len(frames)
    while end > 0 and _is_plumbing(frames[end - 1]):
        end -= 1
    return frames[max(0, end - FRAMEWORK_FRAMES_KEPT) : end]


def frame_names(stack: Sequence[Frame]) -> set[str]:
    """Function names on a stack, for evidence checks."""
    return {frame.name for frame in stack}


_NOTE = re.compile(r"^(?P<code>.*?)\s*#\s*(?P<file>[^#]+?):(?P<line>\d+) in (?P<name>[\w<>.]+)")


def resolve_short_path(short: str, known: Iterable[str]) -> str:
    """Torch shortens paths in guard comments (``mp/probe/f.py``); find the full one."""
    for candidate in known:
        if candidate.endswith(short) and candidate != short:
            return candidate
    return short


def frame_from_note(note: str, known: Iterable[str]) -> Frame | None:
    """The user frame in a guard-tree comment: ``<code>  # <file>:<line> in <fn>``."""
    match = _NOTE.search(note)
    if match is None:
        return None
    filename = resolve_short_path(match["file"].strip(), known)
    return Frame(filename, int(match["line"]), match["name"], match["code"].strip())

"""Stack frames from trace events: resolve interned filenames, split user and framework."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from symdebug.model.types import Frame
from symdebug.model.values import posix_path
from symdebug.torchtext.source_text import source_line

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
_FILE_LINE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+)$')


@lru_cache(maxsize=8192)
def is_torch_file(filename: str) -> bool:
    """Whether a path lies inside the torch package (absolute or torch's short form)."""
    normalized = posix_path(filename)
    return "/torch/" in normalized or normalized.startswith("torch/")


def to_frame(raw: Mapping[str, Any], strings: Mapping[int, str]) -> Frame:
    """One torch frame dict (``{"filename": id, "line", "name", "loc"}``) as a Frame."""
    filename = raw.get("filename", "")
    if isinstance(filename, int):
        filename = strings.get(filename, f"<interned {filename}>")
    lineno = int(raw.get("line") or 0)
    line = raw.get("loc")
    if not line:  # torch leaves it empty when its own line lookup failed; a live one retries
        line = source_line(str(filename), lineno)
    return Frame(str(filename), lineno, str(raw.get("name", "")), str(line or ""))


def _raw_frames(raw: Any) -> list[Mapping[str, Any]]:
    if not isinstance(raw, list | tuple):
        return []
    return [item for item in raw if isinstance(item, Mapping)]


class FrameReader:
    """The frames of one event stream, each distinct frame made once.

    Interned file names are resolved and torch files recognised once per name; guards share
    most of their stacks, so frames are shared between facts: never change one in place.
    """

    def __init__(self, strings: Mapping[int, str]) -> None:
        self.strings = strings
        self._frames: dict[tuple[Any, ...], Frame] = {}
        self._torch: dict[Any, bool] = {}
        self._full: dict[str, str] = {}
        self._notes: dict[str, Frame | None] = {}
        self._user: dict[int, tuple[Any, list[Frame]]] = {}

    def frame(self, raw: Mapping[str, Any]) -> Frame:
        """One frame dict as a Frame."""
        key = (raw.get("filename", ""), raw.get("line"), raw.get("name", ""), raw.get("loc"))
        try:
            found = self._frames.get(key)
        except TypeError:  # an unhashable value in a damaged log: convert it uncached
            return to_frame(raw, self.strings)
        if found is None:
            found = self._frames[key] = to_frame(raw, self.strings)
        return found

    def frames(self, raw: Any) -> list[Frame]:
        """A whole stack, outermost first (entries that are not frames are skipped)."""
        return [self.frame(item) for item in _raw_frames(raw)]

    def user_frames(self, raw: Any) -> list[Frame]:
        """A user stack: the frames that name a file (a list of the caller's own).

        Remembered by the identity of the stack's list, the list itself held (so that no
        other list can take its identity): a stream read from a log shares each stack.
        """
        known = self._user.get(id(raw))
        if known is None or known[0] is not raw:
            known = self._user[id(raw)] = (raw, [f for f in self.frames(raw) if f.filename])
        return list(known[1])

    def innermost_torch_frames(self, raw: Any) -> Iterator[Frame]:
        """The torch frames below the last frame outside torch, innermost first."""
        if not isinstance(raw, list | tuple):
            return
        for item in reversed(raw):
            if not isinstance(item, Mapping):
                continue
            if not self.is_torch_entry(item):
                return
            yield self.frame(item)

    def full_path(self, short: str) -> str:
        """The full path of a file torch shortened in a guard comment (``mp/probe/f.py``)."""
        if short not in self._full:
            self._full[short] = resolve_short_path(short, self.strings.values())
        return self._full[short]

    def note_frame(self, note: str) -> Frame | None:
        """:func:`frame_from_note`, remembered: a frame's recompiles repeat their notes."""
        if note not in self._notes:
            self._notes[note] = frame_from_note(note, self)
        return self._notes[note]

    def is_torch_entry(self, raw: Mapping[str, Any]) -> bool:
        """Whether a frame dict lies in torch (remembered per file name)."""
        name = raw.get("filename", "")
        try:
            known = self._torch.get(name)
        except TypeError:
            return is_torch_file(self.frame(raw).filename)
        if known is None:
            known = self._torch[name] = is_torch_file(self.frame(raw).filename)
        return known


def is_plumbing(frame: Frame) -> bool:
    """Whether a frame is guard plumbing (logging, symbolic-shapes internals), not a reason."""
    return _plumbing(frame.filename, frame.name)


@lru_cache(maxsize=16384)
def _plumbing(filename: str, name: str) -> bool:
    where = posix_path(filename) + ":" + name
    return any(part in where for part in _PLUMBING)


_NOTE = re.compile(r"^(?P<code>.*?)\s*#\s*(?P<file>[^#]+?):(?P<line>\d+) in (?P<name>[\w<>.]+)")


def resolve_short_path(short: str, known: Iterable[str]) -> str:
    """Torch shortens paths in guard comments (``mp/probe/f.py``); find the full one."""
    for candidate in known:
        if candidate.endswith(short) and candidate != short:
            return candidate
    return short


def frame_from_note(note: str, reader: FrameReader) -> Frame | None:
    """The user frame in a guard-tree comment: ``<code>  # <file>:<line> in <fn>``."""
    match = _NOTE.search(note)
    if match is None:
        return None
    filename = reader.full_path(match["file"].strip())
    return Frame(filename, int(match["line"]), match["name"], match["code"].strip())


def traceback_frames(text: str) -> list[Frame]:
    """The frames of a Python traceback (``File "f", line N, in name`` + source line)."""
    lines = text.splitlines()
    frames = []
    for index, line in enumerate(lines):
        match = _FILE_LINE.match(line)
        if match is None:
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        source = "" if _FILE_LINE.match(following) else following.strip()
        frames.append(Frame(match["file"], int(match["line"]), match["name"], source))
    return frames

"""Every torch release symdebug knows, a module each, and the choice of one for a run.

A module per release holds a :class:`~.sections.Release`: what that release does that this
debugger reads (cause evidence, guard-tree text, log records, the cache-entry API, ShapeEnv
hooks, the settings a fix may set), each section written as what changed since the release
before.  The modules are found here and checked at import; adding torch 2.16 is one module
(``docs/torch-releases.md``).  Nothing here imports torch.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from symdebug._torch.releases.sections import Release, Version

#: How the release of a session was known: from the torch running the capture, from the
#: log's own version record, inferred from the frames on its stacks, or assumed (none of
#: those: the oldest release symdebug knows, said so).
Known = Literal["running", "recorded", "inferred", "assumed"]
_MODULE = re.compile(r"v(\d+)_(\d+)$")
_VERSION = re.compile(r"(\d+)\.(\d+)")


def parse_version(text: str | None) -> Version | None:
    """``(2, 15)`` for ``"2.15.0+cu132"``; None for what names no release."""
    match = _VERSION.match(text or "")
    return (int(match[1]), int(match[2])) if match else None


def _discovered() -> tuple[Release, ...]:
    """Each ``v<major>_<minor>`` module's ``RELEASE``, oldest first, checked."""
    found: list[Release] = []
    for module in pkgutil.iter_modules(__path__):
        match = _MODULE.match(module.name)
        if match is None:
            continue
        release = importlib.import_module(f"{__name__}.{module.name}").RELEASE
        expected = (int(match[1]), int(match[2]))
        if not isinstance(release, Release) or release.version != expected:
            raise ImportError(f"{module.name}.RELEASE must be a Release of torch {expected}")
        if parse_version(release.tested) != expected:
            raise ImportError(f"{module.name}: tested {release.tested!r} is not torch {expected}")
        found.append(release)
    found.sort(key=lambda release: release.version)
    if not found:
        raise ImportError("symdebug knows no torch release")
    return tuple(found)


#: The releases symdebug knows, oldest first.
RELEASES: tuple[Release, ...] = _discovered()
OLDEST, NEWEST = RELEASES[0], RELEASES[-1]


def release_of(version: Version | None) -> Release:
    """The tables for ``version``: its own, else the nearest release symdebug knows."""
    if version is None:
        return OLDEST
    known = [release for release in RELEASES if release.version <= version]
    return known[-1] if known else OLDEST


def release_named(name: str) -> Release:
    """The release a session names (``"2.15"``), or the nearest known (``""``: the oldest)."""
    return release_of(parse_version(name))


def infer_release(frames: Iterable[tuple[str, str, int]]) -> Release | None:
    """The release whose fingerprint frames ``(path, function, line)`` match most, or None."""
    seen = {(path.rsplit("site-packages/", 1)[-1], name, line) for path, name, line in frames}
    scores = [(len(release.fingerprint.frames & seen), release) for release in RELEASES]
    best = max(scores, key=lambda pair: pair[0])
    return best[1] if best[0] else None


@dataclass(frozen=True)
class ReleaseChoice:
    """Which tables a session was read with, and how its torch version was known.

    Attributes
    ----------
    release
        The tables.
    version
        The version as torch writes it (``2.15.0+cu132``); ``""`` when unknown.
    known
        ``running``, ``recorded``, ``inferred`` or ``assumed``.
    """

    release: Release
    version: str
    known: Known

    @property
    def note(self) -> str:
        """What a summary says of it: ``torch 2.15.0+cu132 (recorded in the log)``."""
        return choice_note(self.version, self.release.name, self.known)


def choice_note(version: str, release: str, known: str) -> str:
    """``torch 2.15.0 (recorded in the log)``, and the tables read with, when not its own."""
    how = {
        "running": "the torch running the capture",
        "recorded": "recorded in the log",
        "inferred": "inferred from torch's frames in the log",
        "assumed": "not recorded: read as the oldest torch symdebug knows",
    }.get(known, known)
    parsed = parse_version(version)
    named = f"torch {version}" if version else f"torch {release}"
    if parsed is not None and release and f"{parsed[0]}.{parsed[1]}" != release:
        how += f"; read with torch {release}'s tables"
    return f"{named} ({how})"


def chosen(version: str | None, known: Known) -> ReleaseChoice:
    """The choice for a version as torch wrote it (None or ``""``: assumed, the oldest)."""
    if not version:
        return ReleaseChoice(OLDEST, "", "assumed")
    return ReleaseChoice(release_of(parse_version(version)), version, known)

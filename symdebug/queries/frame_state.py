"""What torch does with a frame beyond its cache entries (``torch/_dynamo/convert_frame.py``).

- A compile that traced no ops (``SkipFrame``) or failed with an error torch suppresses marks
  the code ``SKIP``: every later call runs eagerly, even one an entry would serve.
- Once the code holds ``recompile_limit`` entries, a call that misses runs eagerly; after the
  first such miss the code is ``RUN_ONLY``: entries still serve, nothing compiles.
- A compile error torch does not suppress reaches the caller; the next miss compiles again.

Only the last compile of the frame (in the newest generation) can have changed its state:
torch compiles nothing for a frame after skipping it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symdebug.model.types import Compile
from symdebug.processors.failures import SOFT_FAILURES, raised_failures

#: torch 2.13's ``torch._dynamo.config.recompile_limit``.
DEFAULT_RECOMPILE_LIMIT = 8
_LIMIT = re.compile(r"exceeding the (?P<kind>\w+) cache size limit \(currently set to (?P<n>\d+)\)")


@dataclass(slots=True)
class FrameState:
    """How the frame stands; each reason is None when it does not apply."""

    #: Why torch runs every call eagerly (the entries are never looked up).
    skipped: str | None = None
    #: Why a call that no entry serves runs eagerly instead of compiling.
    limit: str | None = None
    #: What we could not know that would change any answer (read after "unless").
    conditions: list[str] = field(default_factory=list)
    #: The same, for answers where no entry serves.
    miss_conditions: list[str] = field(default_factory=list)
    #: Settings taken at torch's default, for answers where no entry serves.
    miss_assumed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def limit_hit(compile_: Compile) -> tuple[str, int] | None:
    """``(limit name, value)`` when this compile stopped at a recompile limit."""
    match = _LIMIT.search(compile_.fail_reason or "")
    return (match["kind"], int(match["n"])) if match else None


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _after_failure(state: FrameState, compiles: list[Compile], settings: Mapping[str, Any]) -> None:
    last = compiles[-1]
    cid = last.compile_id
    hit = limit_hit(last)
    if hit is not None:
        state.limit = f"{hit[0]} ({hit[1]}) reached at {cid}: a call no entry serves runs eagerly"
    elif last.status == "empty" and last.guard_count is None:
        state.skipped = f"torch skipped the frame for good at {cid}: it traced no ops"
    elif last.status == "incomplete":
        state.conditions.append(f"{cid} (unfinished in this log) made torch skip the frame")
    elif last.status == "failed" and cid in raised_failures(compiles):
        why = f"{last.fail_type}: {_first_line(last.fail_reason)}"
        state.notes.append(
            f"{cid} raised ({why}); torch compiled the frame again after such a failure "
            "(fullgraph=True): a miss compiles again"
        )
    elif last.status == "failed":
        _failed(state, last, settings.get("suppress_errors"))


def _failed(state: FrameState, last: Compile, suppress: bool | None) -> None:
    why = f"{last.fail_type}: {_first_line(last.fail_reason)}"
    skip = f"torch skipped the frame for good at {last.compile_id} ({why})"
    if last.fail_type in SOFT_FAILURES:
        state.skipped = skip
        state.conditions.append("the frame is compiled with fullgraph=True (the call raises)")
    elif suppress:
        state.skipped = skip
    else:
        state.notes.append(f"{last.compile_id} failed ({why}): a miss compiles again")
        if suppress is None:  # torch's default is False, but the session does not record it
            state.conditions.append(
                f"torch._dynamo.config.suppress_errors was True (then {skip}; calls run eagerly)"
            )


def _recompile_limit(state: FrameState, entries: int, settings: Mapping[str, Any]) -> None:
    limit = settings.get("recompile_limit")
    if limit is not None:
        if entries >= int(limit):
            state.limit = f"recompile_limit ({limit}) reached: {entries} entries cached"
        return
    name = "torch._dynamo.config.recompile_limit"
    if entries >= DEFAULT_RECOMPILE_LIMIT:  # raised above the default: only >= entries is known
        state.miss_conditions.append(f"{name} is {entries} (the call would run eagerly)")
    else:
        state.miss_assumed.append(f"{name} is torch's default ({DEFAULT_RECOMPILE_LIMIT})")


def frame_state(
    compiles: list[Compile], entries: int, settings: Mapping[str, Any] | None = None
) -> FrameState:
    """The state of a frame from its compiles (newest generation), entry count and settings.

    ``settings`` holds ``recompile_limit`` and ``suppress_errors`` when known (a live
    session reads them from torch); a missing one is an assumption or an uncertainty.
    """
    settings = settings or {}
    state = FrameState()
    if compiles and compiles[-1].status != "ok":
        _after_failure(state, compiles, settings)
    if state.skipped is None and state.limit is None:
        _recompile_limit(state, entries, settings)
    return state

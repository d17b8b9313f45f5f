"""What torch does with a frame beyond its cache entries (``torch/_dynamo/convert_frame.py``).

- A compile that traced no ops (``SkipFrame``) or failed with an error torch suppresses marks
  the code ``SKIP``: every later call runs eagerly, even one an entry would serve.
- Once the code holds ``recompile_limit`` entries, a call that misses runs eagerly; after the
  first such miss the code is ``RUN_ONLY``: entries still serve, nothing compiles.
- A compile error torch does not suppress reaches the caller; the next miss compiles again.
- ``torch.compiler.set_stance`` (read now by a live session) can run every call eagerly, or
  a miss eagerly, or make a miss raise.

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

#: torch 2.13's ``torch._dynamo.config.recompile_limit`` and ``accumulated_recompile_limit``.
DEFAULT_RECOMPILE_LIMIT, DEFAULT_ACCUMULATED_LIMIT = 8, 256
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


def _recompile_limit(
    state: FrameState, compiles: list[Compile], entries: int, settings: Mapping[str, Any]
) -> None:
    """Whether a miss runs eagerly: the limit the frame last compiled under, else the setting.

    ``torch.compile(recompile_limit=N)`` sets the limit for its frames alone; a setting read
    now that differs from it (or a setting changed since) leaves the answer unsure.
    """
    recorded = compiles[-1].recompile_limit if compiles else None
    limit = settings.get("recompile_limit")
    name = "torch._dynamo.config.recompile_limit"
    if recorded is not None:
        if entries >= recorded:
            state.limit = f"recompile_limit ({recorded}) reached: {entries} entries cached"
        if limit is not None and int(limit) != recorded and min(recorded, int(limit)) <= entries:
            other = "runs eagerly" if entries >= int(limit) else "compiles again"
            state.miss_conditions.append(
                f"the frame's recompile_limit is {limit}, as set now, not {recorded} as it last"
                f" compiled with (then a miss {other})"
            )
        elif limit is None:
            state.miss_assumed.append(f"{name} is {recorded}, as the frame last compiled with")
    elif limit is not None:
        if entries >= int(limit):
            state.limit = f"recompile_limit ({limit}) reached: {entries} entries cached"
    elif entries >= DEFAULT_RECOMPILE_LIMIT:  # raised above the default: only >= is known
        state.miss_conditions.append(f"{name} is {entries} (the call would run eagerly)")
    else:
        state.miss_assumed.append(f"{name} is torch's default ({DEFAULT_RECOMPILE_LIMIT})")


def _accumulated_limit(
    state: FrameState, compiles: list[Compile], entries: int, settings: Mapping[str, Any]
) -> None:
    """``accumulated_recompile_limit``: checked first, on entries and on compiles so far.

    ``cache_size.py``'s ``exceeds_recompile_limit``: the next compile's number in the frame
    (failed compiles count) or its entries reaching the limit run the call eagerly.
    """
    recorded = compiles[-1].accumulated_recompile_limit if compiles else None
    limit = settings.get("accumulated_recompile_limit", recorded)
    limit = DEFAULT_ACCUMULATED_LIMIT if limit is None else int(limit)
    next_number = max((c.frame_compile_id for c in compiles), default=-1) + 1
    if max(entries, next_number) >= limit:
        state.limit = (
            f"accumulated_recompile_limit ({limit}) reached: {next_number} compiles of the frame"
        )


def _stance(state: FrameState, settings: Mapping[str, Any]) -> None:
    """``torch.compiler.set_stance``, as read now (a live session)."""
    stance = settings.get("stance", "default")
    if stance == "force_eager":
        state.skipped = "torch.compiler.set_stance('force_eager'): every call runs eagerly"
    elif stance == "eager_on_recompile":
        state.limit = "torch.compiler.set_stance('eager_on_recompile'): a miss runs eagerly"
    elif stance == "fail_on_recompile":
        state.miss_conditions.append("set_stance('fail_on_recompile'): a miss raises")
    elif stance != "default":
        state.conditions.append(f"torch.compiler.set_stance({stance!r}) decides the call")
    if settings.get("skip_guard_eval_unsafe"):
        state.conditions.append("set_stance(skip_guard_eval_unsafe=True): guards are skipped")


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
        _accumulated_limit(state, compiles, entries, settings)
    if state.skipped is None and state.limit is None:
        _recompile_limit(state, compiles, entries, settings)
    _stance(state, settings)
    return state

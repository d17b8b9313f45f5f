"""Compiles that raised to the caller rather than making torch skip the frame.

A soft failure (``Unsupported``, ``UserError``) makes torch skip the frame for good, unless
the frame is compiled with ``fullgraph=True`` (or ``error_on_graph_break``): then the error
reaches the caller and the next call compiles again (``torch/_dynamo/convert_frame.py``,
``ConvertFrame.__call__``).  A log holds no flag for it, but it holds what follows: torch
never compiles a skipped frame again, so a failure with a later compile of its frame raised.
One ``torch.compile`` wrapper compiles the frame each time, so the frame's other soft
failures raised too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from symdebug.model.types import Compile, Facts
from symdebug.model.values import CompileId
from symdebug.processors.writes import Writes

#: Failures torch suppresses whatever ``suppress_errors`` says (``convert_frame.py:2385``).
SOFT_FAILURES = ("Unsupported", "UserError")


def _soft_failure(compile_: Compile) -> bool:
    return compile_.status == "failed" and compile_.fail_type in SOFT_FAILURES


def raised_failures(compiles: Iterable[Compile]) -> set[CompileId]:
    """The soft failures among these compiles (in order) known to have raised, per frame."""
    frames: dict[tuple[int, int], list[Compile]] = defaultdict(list)
    for compile_ in compiles:
        cid = compile_.compile_id
        frames[(cid.frame_id, cid.generation)].append(compile_)
    raised: set[CompileId] = set()
    for frame in frames.values():
        ordered = sorted(frame, key=lambda c: c.compile_id.sort_key)
        failed = [c for c in ordered[:-1] if _soft_failure(c)]  # a later compile follows
        if failed:
            raised.update(c.compile_id for c in ordered if _soft_failure(c))
    return raised


def settle_failed_breaks(facts: Facts) -> Writes:
    """Breaks of compiles that raised: failed, not a frame skipped for good."""
    raised = raised_failures(facts.compiles) if facts.graph_breaks else set()
    failed = [b for b in facts.graph_breaks if b.compile_id in raised]
    return Writes().rows(("skipped", "failed"), failed, [(False, True)] * len(failed))

"""What torch itself does differently from one release to the next, as the tests meet it.

One row per difference: its name, the first release that behaves the new way, and what
changed, in torch's terms.  A test that meets one asks :func:`since` and says, by the row's
name, which behaviour it expects; the conformance matrix lists each row as "differs by
torch" for the releases it covers.  Rows are checked at import: names are unique and every
release is one symdebug knows.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from symdebug._torch.releases import RELEASES, parse_version


@dataclass(frozen=True)
class Difference:
    """One behaviour torch changed: from release ``since`` on, ``what``."""

    name: str
    since: tuple[int, int]
    what: str


DIFFERENCES = (
    Difference(
        "no_suppressed_backward_stride_guard",
        (2, 15),
        "AOTAutograd no longer evaluates a backward input's stride check under guard"
        " suppression: a compiled backward has no suppressed guard",
    ),
    Difference(
        "export_takes_a_frame_id",
        (2, 15),
        "a non-strict torch.export runs inside a Dynamo compile context: it takes frame id 0,"
        " so a torch.compile after it is compile 1/0, not 0/0",
    ),
    Difference(
        "frozen_shape_env_ignores_suppressed_guards",
        (2, 15),
        "a call-time compile on a frozen ShapeEnv (mark_dynamic(specialize_on=...)) evaluates"
        " two more guards under suppression; torch counts them ignored",
    ),
    Difference(
        "no_weakref_cleanup_warning",
        (2, 15),
        "torch._dynamo.reset() no longer leaves ExactWeakKeyDictionary callbacks that raise"
        " KeyError in torch's own cleanup: no warning to filter",
    ),
)
_BY_NAME = {difference.name: difference for difference in DIFFERENCES}
RUNNING = parse_version(torch.__version__)
assert len(_BY_NAME) == len(DIFFERENCES), "two differences share a name"
assert all(d.since in {r.version for r in RELEASES} for d in DIFFERENCES), "an unknown release"


def since(name: str) -> bool:
    """Whether the running torch behaves the new way of difference ``name``."""
    difference = _BY_NAME[name]
    return RUNNING is not None and difference.since <= RUNNING


def described(name: str) -> str:
    """``torch 2.15: <what>``, for an assertion's message."""
    difference = _BY_NAME[name]
    return f"torch {difference.since[0]}.{difference.since[1]}: {difference.what}"

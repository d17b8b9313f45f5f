"""What torch itself does differently from one release to the next, as the tests meet it.

One row per difference: its name, the first release that behaves the new way, and what
changed, in torch's terms.  A test that meets one asks :func:`since` and says, by the row's
name, which behaviour it expects; the conformance matrix lists each row as "differs by
torch" for the releases it covers.  Rows are checked at import: names are unique and every
release is one symdebug knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from symdebug._torch.releases import RELEASES, parse_version


@dataclass(frozen=True)
class Difference:
    """One behaviour torch changed: from release ``since`` on, ``what``.

    ``programs``: the conformance corpus programs whose answers it changes (their recorded
    answers differ from the oldest release's on every release from ``since`` on); ``kinds``:
    which of their answers, the live capture's or the log's (``recorded.Kind``).
    """

    name: str
    since: tuple[int, int]
    what: str
    programs: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("live", "log")


DIFFERENCES = (
    Difference(
        "static_sources_read_from_the_environment",
        (2, 15),
        "TORCH_COMPILE_STATIC_SOURCES is read (torch.compiler.config.static_sources): the"
        " sources it lists stay constants, so each new size recompiles; before, it was ignored",
        programs=("static_sources_env",),
    ),
    Difference(
        "no_base_symbol_for_a_resume_frames_view",
        (2, 15),
        "a resume frame's input that is a view gets no symbol for its base (h._base.size()[0])"
        " and no guard relating the two: from a log, whose stacks lack the calling line, `why`"
        " of the view's size then names the call above the frame instead of the guard's line",
        programs=("graph_breaks",),
        kinds=("log",),
    ),
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
assert len(_BY_NAME) == len(DIFFERENCES), "two differences share a name"
assert all(d.since in {r.version for r in RELEASES} for d in DIFFERENCES), "an unknown release"


@cache
def _running() -> tuple[int, int] | None:
    import torch  # the unit tier reads the rows without torch; only this asks the running one

    return parse_version(torch.__version__)


def since(name: str) -> bool:
    """Whether the running torch behaves the new way of difference ``name``."""
    running = _running()
    return running is not None and _BY_NAME[name].since <= running


def differences_of(program: str, release: tuple[int, int], kind: str = "live") -> list[Difference]:
    """The differences that change ``program``'s answers (``kind``) on ``release``."""
    return [
        d for d in DIFFERENCES if program in d.programs and d.since <= release and kind in d.kinds
    ]


def described(name: str) -> str:
    """``torch 2.15: <what>``, for an assertion's message."""
    difference = _BY_NAME[name]
    return f"torch {difference.since[0]}.{difference.since[1]}: {difference.what}"

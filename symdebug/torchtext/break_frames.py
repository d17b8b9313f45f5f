"""Where a graph break lies: the user's own line inside the compiled frame, and the library's.

Torch's user-code traceback of a break runs from the program's first frame to the line
Dynamo was tracing when it gave up: first the calls that led to the compiled frame (they ran
eagerly: a training loop, a test harness), then the compiled frame and every function it
inlined.  Only the latter were compiled, so only they can hold the user line of the break: a
break inside DDP's forward, compiled as the whole module, has no line of the user's at all,
and the line that called the module is not where the graph broke.  The innermost frame is
where torch says the graph broke (its ``Graph break in user code at`` headline); when it
lies in a library, it is the break's library line.

Torch names a resume frame by the function it resumes (``collapse_resume_frames``), so
``torch_dynamo_resume_in_f_at_9`` is found as ``f``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symdebug.model.types import Frame
from symdebug.model.values import posix_path
from symdebug.torchtext.own_code import is_own_code

_RESUME = re.compile(r"^torch_dynamo_resume_in_(?P<fn>.+)_at_\d+$")


def traced_name(name: str) -> str:
    """The name torch's traceback gives the frame of a compiled code object."""
    match = _RESUME.match(name)
    return traced_name(match["fn"]) if match else name


def compiled_frames(stack: Sequence[Frame], name: str, filename: str) -> list[int]:
    """The positions in ``stack`` of frames of the compiled code (``name`` in ``filename``)."""
    wanted = (posix_path(filename), traced_name(name))
    return [i for i, f in enumerate(stack) if (posix_path(f.filename), f.name) == wanted]


def compiled_region(stack: Sequence[Frame], name: str, filename: str) -> list[Frame]:
    """The frames of ``stack`` that were traced: from the compiled frame inward.

    The innermost frame of the compiled code is taken (a caller of the same name in the same
    file, running eagerly, lies further out), so no caller's frame is ever in the region.
    The whole stack when the compiled frame is not in it (torch logged none of its frames).
    """
    found = compiled_frames(stack, name, filename)
    return list(stack[found[-1] :]) if found else list(stack)


def placed(
    stack: Sequence[Frame], name: str | None, filename: str | None
) -> tuple[Frame | None, Frame | None]:
    """``(user line, library line)`` of a break whose traceback is ``stack``.

    The user line is the innermost frame of the user's own code inside the compiled frame;
    the library line is the innermost frame, when it lies in a library.
    """
    region = compiled_region(stack, name, filename) if name and filename else list(stack)
    user = next((f for f in reversed(region) if is_own_code(f)), None)
    innermost = region[-1] if region else None
    library = innermost if innermost is not None and not is_own_code(innermost) else None
    return user, library

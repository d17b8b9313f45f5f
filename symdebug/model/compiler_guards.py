"""What a guard the compiler added is, and whether it matters: said once for every view.

Dynamo's guards come from a line of the user's (a branch, an operator that needs a size).
AOTAutograd building the backward graph, and Inductor lowering a graph to kernels, add
guards of their own (``6*s31 <= 4096``: a kernel's choice of loop): no line of the user's,
no FX node of the Dynamo graph.  ``print(s)``, ``why()`` and the viewer
(``extension/src/compiler_guards.ts`` holds the same words) say what such a guard is.
"""

from __future__ import annotations

from symdebug.model.types import Guard

#: ``Guard.origin`` of a guard a compile cache replayed (``builders/cache_hits.py`` marks them).
FROM_CACHE = "cache"

#: Each compiler cause: what its guards are and when they matter.
COMPILER_GUARD_SAID: dict[str, str] = {
    "backward": (
        "a guard the compiler added while building the backward graph (no line of yours): "
        "it matters only if a call's size breaks it, then the frame recompiles"
    ),
    "inductor": (
        "a guard the compiler added while lowering the graph to kernels (Inductor; no line "
        "of yours): it matters only if a call's size breaks it, then the frame recompiles"
    ),
}
#: A guard a compile cache replayed (:mod:`symdebug.builders.cache_hits`): whatever its cause.
FROM_CACHE_SAID = (
    "from cache: no user line (a compile cache replayed this guard's stored expression; "
    "capture with its default disable_caches=True traces it afresh, with its line)"
)


def compiler_guard_note(guard: Guard) -> str | None:
    """What a guard the compiler added is and whether it matters; None for Dynamo's own.

    Parameters
    ----------
    guard
        A guard, with its cause.

    Returns
    -------
    str or None
        :data:`FROM_CACHE_SAID` for a guard a compile cache replayed, else the words of
        :data:`COMPILER_GUARD_SAID` for a ``backward`` or ``inductor`` guard.
    """
    if guard.origin == FROM_CACHE:
        return FROM_CACHE_SAID
    return COMPILER_GUARD_SAID.get(guard.cause)

"""Guards a compile cache replayed: no line of the user's, and said so.

With the compile caches on (``capture(disable_caches=False)``, or a plain ``TORCH_TRACE``
run), a compile whose graph AOTAutograd or Inductor finds in its cache does not trace it
again: the cache re-evaluates the guard expressions it stored, so those guards come from
``autograd_cache.py``/``codecache.py`` with no user line, no FX node, no ShapeEnv record of
where they came from.  Torch logs each hit (``fx_graph_cache_hit`` before the replayed
guards, ``aotautograd_cache_hit`` after them); every guard after the replay began is marked
:data:`FROM_CACHE`, so that no view takes its missing line for the compiler's own guard.
"""

from __future__ import annotations

from collections.abc import Iterable

from symdebug.builders.compile_group import CompileEvents
from symdebug.events import Event

_FX_HIT = "artifact:fx_graph_cache_hit"
_AOT_HIT = "artifact:aotautograd_cache_hit"
#: Where an AOTAutograd hit replays from: after Dynamo's graph (no AOT tracing follows).
_DYNAMO_GRAPH = "dynamo_output_graph"


def replayed_events(group: CompileEvents, guard_events: Iterable[Event]) -> set[int]:
    """The ids of ``guard_events`` a cache replayed (none without a logged cache hit)."""
    if group.last(_FX_HIT) is None and group.last(_AOT_HIT) is None:
        return set()  # the common case: no scan of the compile's events
    start = group.named(_FX_HIT)[:1] or group.named(_DYNAMO_GRAPH)[-1:]
    if not start:
        return set()
    wanted = {id(event) for event in guard_events}
    order = [id(event) for event in group.events]
    begins = order.index(id(start[0])) if id(start[0]) in order else len(order)
    return {key for key in order[begins:] if key in wanted}

"""Every object the collector tracks, the frozen ones too.

A replay's child freezes what it inherited from the parent (:func:`gc.freeze` in
:mod:`symdebug.live.isolated`), so that its collections never finalize the parent's garbage;
:func:`gc.get_objects` then leaves out the parent's functions and compiled wrappers, the very
objects a replay's code swaps and marks look for.
"""

from __future__ import annotations

import gc


def every_object() -> list[object]:
    """:func:`gc.get_objects`, with the permanent generation (frozen objects) included.

    The frozen objects are thawed for the listing and frozen again, with the collector off
    in between, so none of them is collected here.
    """
    if not gc.get_freeze_count():
        return gc.get_objects()
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.unfreeze()
        return gc.get_objects()
    finally:
        gc.freeze()
        if enabled:
            gc.enable()

"""Adapters over torch internals: every private torch API symdebug touches lives here.

One module per torch area, so a new torch release means one place to change.  Each
function degrades to ``None`` or an empty result when the private API it reads moved.
"""

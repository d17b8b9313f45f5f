"""Processors: passes that read the facts and return what they write (``writes.Writes``).

:mod:`symdebug.pipeline` runs them, in a checked order, and applies their writes.
"""

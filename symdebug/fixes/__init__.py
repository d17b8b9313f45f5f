"""Fixes: the Python a fix shows, its settings, evidence and the rewrites a replay applies.

Pure functions of facts and source text.  The passes that attach fixes to facts live in
``symdebug.processors`` (``fixes.py``, ``export_fixes.py``); replays in ``symdebug.live``.
"""

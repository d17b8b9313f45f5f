"""symdebug: find out why torch.compile specialized a shape, and what to do about it.

>>> import symdebug                                   # doctest: +SKIP
>>> with symdebug.capture() as s:                     # doctest: +SKIP
...     compiled(x); compiled(y)
>>> print(s.why("x", 0))                              # doctest: +SKIP
"""

from __future__ import annotations

from symdebug.capture import capture, start, stop
from symdebug.loading import MultiRankSession, load, load_trace
from symdebug.queries.why import Explanation
from symdebug.session import Session

__version__ = "0.1.0"
__all__ = [
    "Explanation",
    "MultiRankSession",
    "Session",
    "capture",
    "load",
    "load_trace",
    "start",
    "stop",
]

"""Whether a compile is still running in another thread (Dynamo's process-wide compile lock).

Dynamo compiles one frame at a time under ``convert_frame.compile_lock``: holding it for a
moment means no compile is half done, so a capture stopped then has every compile whole.
"""

from __future__ import annotations


def compiles_finished(timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for a compile in another thread to end.

    Returns
    -------
    bool
        True when no compile is running (or this torch has no such lock: nothing to wait
        for), False when one still runs after ``timeout``.
    """
    from torch._dynamo import convert_frame

    lock = getattr(convert_frame, "compile_lock", None)
    if lock is None:
        return True
    if not lock.acquire(timeout=max(timeout, 0.0)):
        return False
    lock.release()
    return True

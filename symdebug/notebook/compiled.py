"""Find what ``torch.compile`` returned for a captured frame among a notebook's names.

``%symdebug`` is given no compiled function, yet its explorer can Run: the frame's code
object (kept by the live capture) is matched, by identity, with the code each
``torch.compile`` result in the user's namespace compiles when called.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import CodeType
from typing import Any

from symdebug._torch.compiled import is_compile_result, original_callable
from symdebug.api import Session
from symdebug.live import LiveSession
from symdebug.predict.predict import frame_compiles


def compiled_codes(value: Any) -> list[CodeType]:
    """The code objects torch compiles when ``value``, a ``torch.compile`` result, is called.

    A compiled function compiles its own code; a compiled module, its ``forward``.  Anything
    that is not a ``torch.compile`` result compiles nothing: an empty list.
    """
    if not is_compile_result(value):
        return []
    original = original_callable(value)
    forward = getattr(original, "forward", None)
    codes = (getattr(original, "__code__", None), getattr(forward, "__code__", None))
    return [code for code in codes if isinstance(code, CodeType)]


def frame_code(session: Session, frame: str | int | None) -> CodeType | None:
    """The code object of the frame's newest definition, when this process captured it."""
    if not isinstance(session, LiveSession):
        return None
    code = session.code_object(frame_compiles(session.facts, frame)[-1].compile_id)
    return code if isinstance(code, CodeType) else None


def compiled_in(namespace: Mapping[str, Any], session: Session, frame: str | int | None) -> Any:
    """The value in ``namespace`` that ``torch.compile`` returned for ``frame``.

    Raises
    ------
    ValueError
        When no name holds it (the result was never bound to a name, or was replaced).
    """
    code = frame_code(session, frame)
    found = (value for value in list(namespace.values()) if code in compiled_codes(value))
    compiled = next(found, None) if code is not None else None
    if compiled is None:
        raise ValueError(
            f"Run needs the compiled function of frame {frame or 'the first'}: no name in the "
            "notebook holds what torch.compile returned for it (symdebug.explorer(s, compiled))"
        )
    return compiled

"""What a schema ``type`` accepts, and the error of a value it does not (the validator's basics).

Shared by the checks of schema nodes (:mod:`.validate_nodes`) and of arrays and objects
(:mod:`.validate_containers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: What a schema ``type`` accepts, as Python types of parsed JSON (``bool`` is no number).
TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "array": (list,),
    "object": (dict,),
}
_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}
_NAMES.update({type(None): "null", list: "an array", dict: "an object"})

Check = Callable[[Any], None]
Ref = Callable[[str], Check]


class Invalid(Exception):  # noqa: N818 - internal, never leaves the validator
    """A value that does not validate; ``path`` grows, innermost first, as it goes up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = []

    def inside(self, key: str | int) -> Invalid:
        """Return the error one level further out (``key`` holds the failing value)."""
        self.path.append(key)
        return self

    def said(self, prefix: str = "") -> str:
        """``compiles[3].guards[0].expr: expected a string, got null``."""
        path = prefix
        for key in reversed(self.path):
            path += f"[{key}]" if isinstance(key, int) else (f".{key}" if path else key)
        return f"{path or '(document)'}: {self.message}"


def shown(value: Any) -> str:
    """What a wrong value is, briefly: ``a string '11'``, ``an array``."""
    name = _NAMES.get(type(value), type(value).__name__)
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        text = repr(value)
        return f"{name} {text[:40] + '...' if len(text) > 40 else text}"
    return f"{name} {str(value).lower()}" if isinstance(value, bool) else name


def fits(types: tuple[type, ...], value: Any) -> bool:
    """Whether ``value`` is of ``types``; an integral float is an integer.

    So the standard says, and orjson reads an integer past 64 bits as a float.
    """
    kind = type(value)
    return kind in types or (kind is float and int in types and value.is_integer())


def expected(types: tuple[type, ...], value: Any) -> Invalid:
    """The error of a value not of ``types``."""
    names = (_NAMES[t] for t in types if t is not int or float not in types)  # a number
    wanted = " or ".join(dict.fromkeys(names))
    return Invalid(f"expected {wanted}, got {shown(value)}")

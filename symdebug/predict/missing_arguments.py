"""Arguments a prediction's call leaves out: named, and never answered with confidence.

``s.predict(x=(4, 8))`` for ``def f(x, y)`` describes a call Python would refuse; whatever
the entries' checks on ``x`` say, ``y`` could change it.  The prediction lists ``y`` among
what it did not check and is unsure.  A parameter with a default in the source may be left
out (the entries' checks on it then say what they can); where the source cannot be read, one
left out is named where the entries read it (its default, if any, would decide there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from symdebug.model.types import Signature
from symdebug.predict.arguments import identity_key

#: The key of a call's values that holds the parameters it leaves out (no source).
MISSING = "missing:"
_NOTE = "not given: "
#: How torch names the function it resumes a frame in after a graph break.
_RESUME = "torch_dynamo_resume_in_"
_TEXT = re.compile(rf"^(?P<name>\w+) \({_NOTE}")
_ROOT = re.compile(r"^(?:\w+:)?L\[['\"](?P<name>\w+)['\"]\]")


def missing_parameters(
    signature: Signature,
    values: Mapping[str, Any],
    defaulted: frozenset[str] | None,
    read: frozenset[str],
    frame: str = "",
) -> tuple[str, ...]:
    """The parameters the call's values do not bind and that have no default (as far as known).

    ``defaulted``: those with a default in the source, None where it could not be read: then
    only a parameter the entries ``read`` is named (a default, if any, would decide there).
    A resume function (``frame``) is called by torch with its own plumbing: none is missing.
    """
    if frame.startswith(_RESUME):
        return ()
    absent = [name for name in _passed(signature) if identity_key(f"L[{name!r}]") not in values]
    if defaulted is None:
        return tuple(name for name in absent if name in read)
    return tuple(name for name in absent if name not in defaulted)


def read_parameters(sources: Iterable[str]) -> frozenset[str]:
    """The parameters the entries' checks read (``L['y'].size()[0]``, ``class:L['cfg']``)."""
    return frozenset(found["name"] for source in sources if (found := _ROOT.match(source)))


def _passed(signature: Signature) -> list[str]:
    """The parameters a call names: a method's ``self`` is bound, ``*args`` may be empty."""
    names = [n for n in signature.names if n not in (signature.varargs, signature.varkw)]
    return names[1:] if names[:1] == ["self"] and signature.positional else names


def missing_texts(values: Mapping[str, Any], signature: Signature | None) -> list[str]:
    """What a prediction lists as not checked for each parameter the call leaves out."""
    missing: Sequence[str] = values.get(MISSING, ())
    if not missing or signature is None:
        return []
    takes = ", ".join(_passed(signature))
    return [f"{name} ({_NOTE}the frame takes {takes})" for name in missing]


def missing_condition(text: str) -> str | None:
    """What would change the answer, for a parameter left out; None for any other text."""
    found = _TEXT.match(text)
    return None if found is None else f"the {found['name']} the call leaves out changes it"


def about_missing(text: str, values: Mapping[str, Any]) -> bool:
    """Whether an unchecked text reads a parameter the call leaves out (``L['y'].dim()``)."""
    found = _ROOT.match(text) or _TEXT.match(text)
    return found is not None and found["name"] in values.get(MISSING, ())


def missing_note(values: Mapping[str, Any], frame: str, *, required: bool) -> list[str]:
    """How to give what is left out; ``required``: the source says it has no default."""
    missing: Sequence[str] = values.get(MISSING, ())
    if not missing:
        return []
    names = ", ".join(missing)
    said = "with no default" if required else "(its default, if any, is not known here)"
    return [f"the call gives no {names}, which {frame}() takes {said}: give it to check it"]

"""Names a user can act on: an input by its parameter name, a frame by what was compiled.

Dynamo names the inputs of a wrapper frame (``torch._dynamo.external_utils.inner``, a
library decorator) ``L['args'][0]``; the capture records the parameter each one is
(``Callee.names``).  Stored sources stay Dynamo's: settings such as ``dynamic_sources``
match them.  These functions only say them the user's way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from symdebug.model.types import Compile
from symdebug.model.values import Source

#: ``._modules['name']`` and its kin: how Dynamo reaches a submodule, not how users write it.
_CONTAINER = re.compile(r"\._(?:modules|parameters|buffers)\[['\"]([^'\"]+)['\"]\]")


def _attribute(match: re.Match[str]) -> str:
    name = match[1]
    return f"[{name}]" if name.isdigit() else f".{name}" if name.isidentifier() else match[0]


def user_name(source: str, names: Mapping[str, str]) -> str:
    """``L['args'][0].size()[0]`` -> ``x.shape[0]`` when ``names`` maps ``L['args'][0]``.

    A source no name maps is said as user code writes it (``x.shape[0]``, ``self.chunk``).
    """
    for root in sorted(names, key=len, reverse=True):
        if source == root or source.startswith((root + ".", root + "[")):
            said = Source(f"L['{names[root]}']" + source[len(root) :]).shape
            return _CONTAINER.sub(_attribute, said)
    return _CONTAINER.sub(_attribute, Source(source).shape)


def renamed(source: str, names: Mapping[str, str]) -> str:
    """The user's name of a wrapper input's source (``x.shape[0]``), else ``""``."""
    said = user_name(source, names) if names else ""
    return said if said != Source(source).shape else ""


#: What only Dynamo's own names hold (``L['___stack0']``, a global ``G['w']``): not the user's.
INTERNAL = ("___", "L[", "G[")


def shown_name(source: str, names: Mapping[str, str]) -> str:
    """The user's name of any source, to show beside Dynamo's; ``""`` where none is known.

    Parameters
    ----------
    source
        A Dynamo source (``L['x'].size()[0]``, ``L['self'].k``, ``L['args'][0].size()[1]``).
    names
        A wrapper frame's inputs by the user's names (``{"L['args'][0]": "x"}``), or empty.

    Returns
    -------
    str
        ``x.shape[0]``, ``self.k``, ``x.shape[1]``; ``""`` for what only Dynamo names.
    """
    return _shown(user_name(source, names)) if names else _shown_plain(source)


@lru_cache(maxsize=65536)
def _shown_plain(source: str) -> str:
    """:func:`shown_name` of a source no wrapper renamed (most of them, said again and again)."""
    return _shown(user_name(source, {}))


def _shown(said: str) -> str:
    return "" if any(mark in said for mark in INTERNAL) else said


def input_names(compiles: Iterable[Compile]) -> dict[str, str]:
    """Every renamed wrapper input of these compiles: ``{"L['args'][0]": "x"}``."""
    return {
        root: name
        for c in compiles
        if c.callee is not None
        for root, name in c.callee.names.items()
    }


def sources_named(names: Mapping[str, str], name: str) -> list[str]:
    """The Dynamo roots a user name stands for: ``x`` is ``L['args'][0]``."""
    return [root for root, user in names.items() if user == name]


def frame_title(compile_: Compile) -> str:
    """``MyModule.forward (model.py:7)``: what was compiled and where it is defined."""
    callee = compile_.callee
    if callee is not None and callee.filename:
        return f"{compile_.title} ({callee.filename}:{callee.lineno})"
    return f"{compile_.title} ({compile_.filename}:{compile_.lineno})"

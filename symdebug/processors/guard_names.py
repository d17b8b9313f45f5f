"""Guards and the inputs of recompiles in the user's names, stored once for every view.

Torch says ``s77 > 4`` and ``L['x'].size()[0]``; the user wrote ``x.shape[0] > 4`` and
``x.shape[0]``.  This pass stores the user's form beside torch's (``Guard.user_expr``,
``Recompile.user_names``), so the summary, the report and the widget show both, as
``why()`` does, and no view works a name out of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from symdebug.fixes.guard_text import guard_text
from symdebug.model.names import shown_name
from symdebug.model.types import Compile, Facts, Guard, Recompile
from symdebug.processors.writes import Writes

_NO_NAMES: Mapping[str, str] = {}


def _names(compile_: Compile | None) -> Mapping[str, str]:
    """A compile's wrapper inputs by the user's names (empty for a plain function)."""
    if compile_ is None or compile_.callee is None or not compile_.callee.names:
        return _NO_NAMES
    return compile_.callee.names


class _GuardTexts:
    """:func:`guard_text` once per distinct guard text, symbols, sources and names.

    A session repeats its guards across compiles (each recompile checks the same sizes).
    """

    def __init__(self) -> None:
        self._said: dict[tuple[object, ...], str] = {}

    def text(self, guard: Guard, names: Mapping[str, str]) -> str:
        key = (guard.expr, tuple(guard.symbols), tuple(guard.sources), id(names))
        found = self._said.get(key)
        if found is None:
            found = self._said[key] = guard_text(guard, names)
        return found


def name_guards(facts: Facts) -> Writes:
    """Each guard as Python in the user's names, and each recompile's inputs by them."""
    names = {c.compile_id: _names(c) for c in facts.compiles}
    texts = _GuardTexts()
    said = [texts.text(g, names.get(g.compile_id, _NO_NAMES)) for g in facts.guards]
    writes = Writes().set("user_expr", facts.guards, said)
    inputs = [_inputs_said(r, names.get(r.compile_id, _NO_NAMES)) for r in facts.recompiles]
    return writes.set("user_names", facts.recompiles, inputs)


def _inputs_said(recompile: Recompile, names: Mapping[str, str]) -> list[str]:
    """A recompile's inputs in the user's names; empty when none has such a name."""
    said = [shown_name(source, names) for source in recompile.sources]
    return said if any(said) else []

"""What a fix is chosen from (:class:`Evidence`), and how a fix object is made.

The settings named here are the torch config values a fix may set; ``fix_plan`` replays the
user's calls under them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from symdebug.fixes.fix_code import size_expression, user_name
from symdebug.model.types import Fix, Guard
from symdebug.model.values import Cause, FixKind, Source

DYNAMIC_SOURCES = "torch.compiler.config.dynamic_sources"
UNBACKED_SOURCES = "torch.compiler.config.unbacked_sources"
STATIC_BY_DEFAULT = "torch._dynamo.config.assume_static_by_default"
SIZE_OBLIVIOUS = "torch.fx.experimental._config.backed_size_oblivious"
DUCK_SHAPE = "torch.fx.experimental._config.use_duck_shape"
UNSPEC_INT_ON_MODULE = "torch._dynamo.config.allow_unspec_int_on_nn_module"
RECOMPILE_LIMIT = "torch._dynamo.config.recompile_limit"
#: torch's default ``recompile_limit``: a fix that raises it doubles this.
DEFAULT_RECOMPILE_LIMIT = 8


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a fix is chosen from; equal evidence gets the same fixes (computed once).

    Attributes
    ----------
    cause
        The cause class of the guard, specialization, symbol or recompile.
    source
        The input it is about (``L['x'].size()[0]``), when known.
    expr
        The guard, as torch prints it (``Eq(Mod(s27, 2), 0)``), when there is one.
    names
        Each symbol of the guard and its Python in the user's names.
    line
        The user line's source text (``if x.shape[0] < 64:``).
    small
        The size was 0 or 1 in a compile this is about: the 0/1 rule, not static-by-default,
        decides what helps.
    container
        What a length check counts, as the compiles' guards show it: ``"dict"``,
        ``"tensors"`` (a list or tuple of tensors that ``pad_sequence`` stacks), or ``""``
        where they do not say.
    detail
        What else the words need: the Inductor lowering that needed a value
        (``adaptive_avg_pool2d``), the size that left a ``mark_dynamic`` range.
    """

    cause: Cause
    source: Source | None = None
    expr: str = ""
    names: tuple[tuple[str, str], ...] = ()
    line: str = ""
    small: bool = False
    container: str = ""
    detail: str = ""


#: An :class:`Evidence`'s fields, in order: what a table of answers is keyed by (a tuple
#: hashes at C speed; the frozen dataclass's own hash and equality cost five times more).
EvidenceKey = tuple[Cause, Source | None, str, tuple[tuple[str, str], ...], str, bool, str, str]


def evidence_key(
    cause: Cause, source: str | None = None, guard: Guard | None = None, *, small: bool = False
) -> EvidenceKey:
    """The fields of :func:`evidence_of`'s answer, as a tuple."""
    names: tuple[tuple[str, str], ...] = ()
    if guard is not None and len(guard.symbols) == len(guard.sources):
        names = _spelled(tuple(guard.symbols), tuple(guard.sources))
    frame = guard.user_frame if guard is not None else None
    return (
        cause,
        (source if type(source) is Source else Source(source)) if source else None,
        guard.expr if guard is not None else "",
        names,
        frame.line if frame is not None else "",
        small,
        "",
        lowering(guard) if guard is not None and cause == "inductor" else "",
    )


def lowering(guard: Guard) -> str:
    """The Inductor lowering a guard was made in (``adaptive_avg_pool2d``), else ``""``.

    The innermost frame in ``_inductor/lowering.py`` other than its ``wrapped`` helper, else
    the ATen node Inductor was lowering.
    """
    for frame in reversed(guard.framework_stack):
        if frame.filename.endswith("_inductor/lowering.py") and frame.name != "wrapped":
            return frame.name.lstrip("_")
    return (guard.inductor_node or "").lstrip("_")


def evidence_of(
    cause: Cause, source: str | None = None, guard: Guard | None = None, *, small: bool = False
) -> Evidence:
    """The evidence of a cause about ``source``, with its guard's expression and user line."""
    return Evidence(*evidence_key(cause, source, guard, small=small))


@lru_cache(maxsize=16384)
def _spelled(symbols: tuple[str, ...], sources: tuple[Source, ...]) -> tuple[tuple[str, str], ...]:
    """Each symbol with its source as the user's code writes it (those that have a form)."""
    spelled = [(sym, size_expression(src)) for sym, src in zip(symbols, sources, strict=True)]
    return tuple((sym, text) for sym, text in spelled if text is not None)


def is_size(evidence: Evidence) -> bool:
    """Whether the evidence is about a tensor size (not an int)."""
    return evidence.source is not None and evidence.source.is_size


def setting(name: str, value: Any, explanation: str) -> Fix:
    """A fix that is one torch setting, written as the assignment that applies it."""
    return Fix(f"{name} = {value!r}", "setting", explanation, {name: value})


def make_fix(code: str, kind: FixKind, explanation: str, **settings: Any) -> Fix:
    """A fix whose settings are given by short keys: ``dynamic=``, ``unbacked=``, ``oblivious=``."""
    return Fix(code, kind, explanation, {SETTING_NAMES[k]: v for k, v in settings.items()})


SETTING_NAMES = {
    "dynamic": DYNAMIC_SOURCES,
    "unbacked": UNBACKED_SOURCES,
    "oblivious": SIZE_OBLIVIOUS,
}


#: ``batch['bias']``: an item of a container, by a string key.
_KEYED_ITEM = re.compile(r"(?P<container>.+)\[(?P<key>'[^'\\]*'|\"[^\"\\]*\")\]")


def mark_call(function: str, name: str, dim: int) -> str:
    """``function(name, dim)``; a dict's item only where the dict holds its key.

    A call may leave a key out (``if "bias" in batch:``): marking ``batch['bias']``
    unconditionally raises ``KeyError`` before such a call.  A wrapper's ``kwargs`` is not
    the caller's dict: the keyword's own name replaces ``kwargs['input_ids']`` later
    (:mod:`symdebug.processors.user_names`).
    """
    call = f"{function}({name}, {dim})"
    keyed = _KEYED_ITEM.fullmatch(name)
    if keyed is None or keyed["container"].endswith("kwargs"):
        return call
    return f"if {keyed['key']} in {keyed['container']}: {call}"


def markable(source: Source) -> tuple[str, str, int] | None:
    """``(user's tensor name, Dynamo's tensor source, dim)`` of a size a user can mark."""
    if source.tensor is None or source.dim is None:
        return None
    name = user_name(source.tensor)
    return (name, source.tensor, source.dim) if name is not None else None

"""What a replay changes: settings, marks, converted arguments, a rewritten function.

Torch settings, marks on a call's inputs, values converted at the call, and the rewritten
code of one function.
A :class:`Change` is one fix as a replay applies it, without editing the user's program:
settings are set, marks and conversions are made on the arguments of each call of the
compiled callables, a rewrite swaps one function's code object.  Several changes make one
candidate; :func:`combined` joins two candidates, or says they conflict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from symdebug.fixes.code_rewrites import Rewrite

#: What a mark does to one dim of a tensor argument before the call.
MarkFunction = Literal[
    "maybe_mark_dynamic", "mark_dynamic", "mark_unbacked", "unmark_static", "unmark_dynamic"
]
ChangeKind = Literal["setting", "mark", "code"]
#: Settings whose values are comma-separated lists: two candidates' values are joined.
LIST_SETTINGS = frozenset(
    {"torch.compiler.config.dynamic_sources", "torch.compiler.config.unbacked_sources"}
)


@dataclass(frozen=True)
class FrameRef:
    """A compiled frame as both processes can find it: the file's name and the def's line."""

    basename: str
    lineno: int

    def __str__(self) -> str:
        return f"{self.basename}:{self.lineno}"


@dataclass(frozen=True)
class Mark:
    """``torch._dynamo.<function>(<source>, dim)`` before each call of the frame."""

    function: MarkFunction
    source: str  # Dynamo's name of the tensor: ``L['x']``, ``L['self'].cache``
    dim: int
    frame: FrameRef | None = None


@dataclass(frozen=True)
class Conversion:
    """An argument replaced before each call: ``name = expression`` in the caller."""

    source: str  # ``L['n']``: a top-level argument
    name: str
    expression: str  # Python in ``name`` and ``torch``: ``torch.as_tensor(n)``
    frame: FrameRef | None = None


@dataclass(frozen=True)
class Change:
    """One fix as a replay applies it.

    Attributes
    ----------
    kind
        ``setting``, ``mark`` (marks and conversions at each call) or ``code`` (a rewrite).
    code
        What the user would write, as the fix says it.
    settings
        ``{dotted torch config name: value}``.
    marks, conversions
        Made on the arguments before each call of the compiled callables.
    rewrite
        One function's new source, swapped in for the run.
    fix
        The code of the fix it applies, as the session suggested it (its verdict's key).
    """

    kind: ChangeKind
    code: str
    settings: dict[str, Any] = field(default_factory=dict, hash=False)
    marks: tuple[Mark, ...] = ()
    conversions: tuple[Conversion, ...] = ()
    rewrite: Rewrite | None = None
    fix: str = ""

    @property
    def fix_code(self) -> str:
        """The suggested fix this change applies (its own code when it is the fix)."""
        return self.fix or self.code

    @property
    def key(self) -> str:
        """Equal for two changes that do the same thing."""
        rewrite = (self.rewrite.filename, self.rewrite.after) if self.rewrite else None
        return repr((sorted(self.settings.items()), self.marks, self.conversions, rewrite))

    @property
    def label(self) -> str:
        """A short name for progress bars and tables."""
        plain = all(isinstance(v, bool | int | float | str) for v in self.settings.values())
        if self.kind == "setting" and plain:
            return ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in self.settings.items())
        return self.code.splitlines()[0] if self.code else self.kind


def setting_change(settings: dict[str, Any]) -> Change:
    """The change that is these settings alone."""
    code = "\n".join(f"{name} = {value!r}" for name, value in settings.items())
    return Change("setting", code, dict(settings))


def merged_settings(plan: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any] | None:
    """``plan`` with ``extra`` added; None when they set one setting to two values."""
    result = dict(plan)
    for name, value in extra.items():
        if name in LIST_SETTINGS and name in result:
            items = [*str(result[name]).split(","), *str(value).split(",")]
            result[name] = ",".join(dict.fromkeys(i.strip() for i in items if i.strip()))
        elif name in result and result[name] != value:
            return None
        else:
            result[name] = value
    return result


def settings_of(changes: tuple[Change, ...]) -> dict[str, Any]:
    """Every setting the changes make, joined (conflicts were refused by :func:`combined`)."""
    result: dict[str, Any] = {}
    for change in changes:
        result = merged_settings(result, change.settings) or result
    return result


def _rewrites_clash(changes: tuple[Change, ...]) -> bool:
    """Two rewrites of one function cannot both be swapped in."""
    functions = [(c.rewrite.filename, c.rewrite.qualname) for c in changes if c.rewrite]
    return len(functions) != len(set(functions))


def _implied(change: Change, settings: dict[str, Any]) -> bool:
    """A settings-only change whose every value ``settings`` already sets."""
    if change.marks or change.conversions or change.rewrite is not None:
        return False
    return all(name in settings and settings[name] == v for name, v in change.settings.items())


def combined(first: tuple[Change, ...], second: tuple[Change, ...]) -> tuple[Change, ...] | None:
    """Both candidates' changes; None when two settings or two rewrites conflict."""
    keys = {change.key for change in first}
    settings = settings_of(first)
    joined = (*first, *(c for c in second if c.key not in keys and not _implied(c, settings)))
    if merged_settings(settings_of(first), settings_of(second)) is None:
        return None
    return None if _rewrites_clash(joined) else joined


def candidate_key(changes: tuple[Change, ...]) -> str:
    """One candidate as a key, independent of the order of its changes."""
    return repr(sorted(change.key for change in changes))

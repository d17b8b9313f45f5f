"""Value types of the model: sources, compile ids, and the closed vocabularies.

``Source`` and ``CompileId`` are ``str`` subclasses, so every public attribute that held a
plain string (``Guard.compile_id``, ``Symbol.sources``) still compares, hashes, prints and
serialises as one; what used to be parsed again at each use (local scope, tensor and dim,
attribute chain, generation suffix) is parsed once, when the value is made.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

Cause = Literal[
    "user_branch",
    "op_requirement",
    "int_specialized",
    "zero_one",
    "duck_sizing",
    "static_by_default",
    "inductor",
    "backward",
    "mark_dynamic_violated",
    "mark_static",
    "length",
    "identity",
    "dynamic_false",
    "dtype",
    "strides",
    "requires_grad",
    "device",
    "dispatch_keys",
    "global_state",
    "mark_dynamic_range",
    "static_sources",
    "dynamic_shapes",
    "unknown",
]
GuardStatus = Literal["installed", "suppressed", "runtime-assert", "ignored"]
SymbolState = Literal["dynamic", "specialized", "duck-sized", "static-by-default", "unbacked"]
CompileStatus = Literal["ok", "failed", "empty", "incomplete"]
Phase = Literal["dynamo", "aot", "inductor", "unknown"]
SpecializationKind = Literal["size", "int"]
WhyStepKind = Literal["state", "guard", "node", "line", "recompile", "fix"]
#: What applying a fix means: a torch setting, a mark on an input, or a change to the code.
FixKind = Literal["setting", "mark", "code"]
#: What made the graph: ``torch.compile`` (Dynamo) or ``torch.export`` (``export/<n>`` ids).
CompileKind = Literal["compile", "export"]

_LOCAL = re.compile(r"""L\[['"]([^'"]+)['"]\]""")
_SIZE = re.compile(r"^(?P<tensor>.+)\.size\(\)\[(?P<dim>\d+)\]$")
_COMPILE_ID = re.compile(r"^(?:!(?P<ca>\d+)/)?(?P<frame>\d+)/(?P<number>\d+)(?:@(?P<gen>\d+))?$")
_EXPORT_ID = re.compile(r"^export/(?P<number>\d+)$")


@lru_cache(maxsize=16384)
def posix_path(path: str) -> str:
    """A file path with forward slashes: every file comparison goes through this."""
    return path.replace("\\", "/")


def strip_local_scope(text: str) -> str:
    """``L['x'].size()[0]`` -> ``x.size()[0]``, the way torch words recompile reasons."""
    return _LOCAL.sub(r"\1", text)


class Source(str):
    """An input as Dynamo names it: ``L['x'].size()[0]``, ``L['self'].chunk``, ``L['n']``.

    Attributes
    ----------
    stripped
        Without the local scope (``x.size()[0]``), as torch words checks.
    tensor, dim
        For a size source, the tensor part and the dimension; else None.
    shape
        The size source as user code writes it (``x.shape[0]``); else ``stripped``.
    """

    __slots__ = ()

    def __new__(cls, text: str) -> Source:
        """The (interned) source of this text."""
        return text if type(text) is Source else _source(str(text))

    @property
    def stripped(self) -> str:
        """The source without ``L[...]`` scoping."""
        return _parsed(self)[0]

    @property
    def tensor(self) -> str | None:
        """The tensor of a size source (``L['x']``), or None."""
        return _parsed(self)[1]

    @property
    def dim(self) -> int | None:
        """The dimension of a size source, or None."""
        return _parsed(self)[2]

    @property
    def is_size(self) -> bool:
        """Whether this names one dimension of a tensor's size."""
        return self.dim is not None

    @property
    def shape(self) -> str:
        """As user code writes it: ``x.shape[0]`` for a size, else the stripped source."""
        return self.stripped.replace(".size()[", ".shape[")

    @property
    def attributes(self) -> tuple[str, ...]:
        """The attribute chain after the local (``('chunk',)`` for ``L['self'].chunk``)."""
        return _parsed(self)[3]

    def same_input(self, other: str) -> bool:
        """Whether ``other`` names the same input, with or without the local scope."""
        return self.stripped == strip_local_scope(other)

    @staticmethod
    def size(tensor: str, dim: int) -> Source:
        """The source of one dimension of a tensor source."""
        return Source(f"{tensor}.size()[{dim}]")


@lru_cache(maxsize=65536)
def _source(text: str) -> Source:
    return str.__new__(Source, text)


@lru_cache(maxsize=65536)
def _parsed(text: str) -> tuple[str, str | None, int | None, tuple[str, ...]]:
    stripped = strip_local_scope(text)
    match = _SIZE.match(text)
    tensor, dim = (match["tensor"], int(match["dim"])) if match else (None, None)
    base = _LOCAL.sub("", text, count=1) if text.startswith(("L[", "G[")) else ""
    attributes = tuple(part for part in re.findall(r"\.(\w+)", base) if part != "size")
    return stripped, tensor, dim, attributes


class CompileId(str):
    """A compile's id: torch's ``"0/1"`` (``"!2/0/1"`` under compiled autograd).

    ``"@<generation>"`` follows after a ``torch._dynamo.reset()`` made torch reuse the id.
    """

    __slots__ = ()

    def __new__(cls, text: str) -> CompileId:
        """The (interned) compile id of this text."""
        return text if type(text) is CompileId else _compile_id(str(text))

    @classmethod
    def of(
        cls, frame_id: int, number: int, *, generation: int = 0, autograd: int | None = None
    ) -> CompileId:
        """The id of compile ``number`` of frame ``frame_id``."""
        prefix = f"!{autograd}/" if autograd is not None else ""
        suffix = f"@{generation}" if generation else ""
        return cls(f"{prefix}{frame_id}/{number}{suffix}")

    @classmethod
    def export(cls, number: int) -> CompileId:
        """The id of the ``number``-th ``torch.export`` call: ``export/<number>``."""
        return cls(f"export/{number}")

    @property
    def is_export(self) -> bool:
        """Whether this names a ``torch.export`` call, not a Dynamo compile."""
        return self.startswith("export/")

    @property
    def frame_id(self) -> int:
        """The frame number (``0`` in ``0/1``)."""
        return _id_parts(self)[1]

    @property
    def number(self) -> int:
        """The compile number within its frame (``1`` in ``0/1``)."""
        return _id_parts(self)[2]

    @property
    def generation(self) -> int:
        """How many resets reused this id before (0 when torch never reused it)."""
        return _id_parts(self)[3]

    @property
    def torch_id(self) -> str:
        """The id as torch prints it, without the generation."""
        return self.split("@", 1)[0]

    @property
    def sort_key(self) -> tuple[int, int, int, int]:
        """Order: generation, compiled-autograd id, frame, number."""
        autograd, frame, number, generation = _id_parts(self)
        return (generation, autograd, frame, number)

    def in_generation(self, generation: int) -> CompileId:
        """The same torch id in another generation (torch names entries of its own one)."""
        return CompileId(self.torch_id + (f"@{generation}" if generation else ""))


@lru_cache(maxsize=65536)
def _compile_id(text: str) -> CompileId:
    return str.__new__(CompileId, text)


@lru_cache(maxsize=65536)
def _id_parts(text: str) -> tuple[int, int, int, int]:
    """``(compiled-autograd id or -1, frame, number, generation)``; ``-1``s when unparsable."""
    match = _COMPILE_ID.match(text)
    if match is None:
        export = _EXPORT_ID.match(text)
        return (-1, -1, int(export["number"]) if export else -1, 0)
    autograd = int(match["ca"]) if match["ca"] else -1
    return (autograd, int(match["frame"]), int(match["number"]), int(match["gen"] or 0))


#: Seconds one replay may run by default, everywhere: a script run by ``symdebug run``,
#: ``fix`` or ``hunt``, and a workload replayed by ``fix_plan`` or ``hunt`` (``--timeout``,
#: ``timeout=``).  Past it the replay is stopped, and its row or plan says so.
REPLAY_TIMEOUT_S = 1800.0

"""Facts about compiled code: Dynamo graph nodes, generated kernels, baked-in sizes."""

from __future__ import annotations

from dataclasses import dataclass, field

from symdebug.model.values import Cause, CompileId, Source


@dataclass(slots=True)
class FxNode:
    """A node of a Dynamo output graph, with the user line it came from."""

    compile_id: CompileId
    name: str
    op: str
    target: str
    sizes: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    filename: str = ""
    lineno: int = 0
    code: str = ""

    def __post_init__(self) -> None:
        if type(self.compile_id) is not CompileId:  # a builder's already is: no call then
            self.compile_id = CompileId(self.compile_id)


@dataclass(slots=True)
class KernelSizeArg:
    """A size that reaches a kernel as an argument (``ks0``), and what it stands for."""

    param: str
    expr: str
    symbols: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class KernelLiteral:
    """An integer literal in a kernel: a size baked in, or a codegen constant.

    Immutable: the kernels of one source share theirs.
    """

    value: int
    kind: str
    context: str


@dataclass(slots=True)
class SpecializedDim:
    """A dimension symbolic in the Dynamo graph but a literal in the generated code."""

    source: Source
    symbol: str
    value: int
    placeholder: str
    explanation: str = ""
    guard: str | None = None
    cause: Cause = "unknown"

    def __post_init__(self) -> None:
        self.source = Source(self.source)


@dataclass(slots=True)
class Kernel:
    """One generated kernel (C++ on CPU, Triton on GPU) of a compiled graph."""

    compile_id: CompileId
    name: str
    graph: str
    language: str
    size_args: list[KernelSizeArg] = field(default_factory=list)
    literals: list[KernelLiteral] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    source: str = ""

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)


@dataclass(slots=True)
class GraphCode:
    """The wrapper of one compiled graph: its kernels and the dims it baked in."""

    compile_id: CompileId
    graph: str
    input_sizes: dict[str, list[str]] = field(default_factory=dict)
    specialized_dims: list[SpecializedDim] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)

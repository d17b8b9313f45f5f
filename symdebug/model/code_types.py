"""Facts about compiled code: Dynamo graph nodes, generated kernels, baked-in sizes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class FxNode:
    """A node of a Dynamo output graph, with the user line it came from."""

    compile_id: str
    name: str
    op: str
    target: str
    sizes: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    filename: str = ""
    lineno: int = 0
    code: str = ""


@dataclass(slots=True)
class KernelSizeArg:
    """A size that reaches a kernel as an argument (``ks0``), and what it stands for."""

    param: str
    expr: str
    symbols: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


@dataclass(slots=True)
class KernelLiteral:
    """An integer literal in a kernel: a size baked in, or a codegen constant."""

    value: int
    kind: str
    context: str


@dataclass(slots=True)
class SpecializedDim:
    """A dimension symbolic in the Dynamo graph but a literal in the generated code."""

    source: str
    symbol: str
    value: int
    placeholder: str
    explanation: str = ""
    guard: str | None = None
    cause: str = "unknown"


@dataclass(slots=True)
class Kernel:
    """One generated kernel (C++ on CPU, Triton on GPU) of a compiled graph."""

    compile_id: str
    name: str
    graph: str
    language: str
    size_args: list[KernelSizeArg] = field(default_factory=list)
    literals: list[KernelLiteral] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    source: str = ""


@dataclass(slots=True)
class GraphCode:
    """The wrapper of one compiled graph: its kernels and the dims it baked in."""

    compile_id: str
    graph: str
    input_sizes: dict[str, list[str]] = field(default_factory=dict)
    specialized_dims: list[SpecializedDim] = field(default_factory=list)

"""Parse Inductor's output code (the ``inductor_output_code`` payload).

What we read: kernels, their size arguments and literals, and the sizes the wrapper asserts
for each graph input.

CPU kernels are C++ (``async_compile.cpp_pybinding([...], r'''...''')``, sizes as
``const int64_t ks0``); GPU kernels are Triton (``async_compile.triton('name', '''...''')``,
sizes as ``ks0`` parameters and ``xnumel``).  Call sites in ``call()`` pass the wrapper's
expressions (``s77``) in parameter order, which maps ``ks0`` to a symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from symdebug.model.graph_dump import split_top_level

_AOT_ID = re.compile(r"^# AOT ID: \['(?P<graph>[^']+)'\]", re.MULTILINE)
_CPP_DEF = re.compile(
    r"^(?P<name>\w+) = async_compile\.cpp_pybinding\(\[(?P<types>[^\]]*)\], r'''(?P<body>.*?)'''\)",
    re.MULTILINE | re.DOTALL,
)
_TRITON_DEF = re.compile(
    r"^(?P<name>\w+) = async_compile\.triton\('(?P<kernel>\w+)', '''(?P<body>.*?)'''",
    re.MULTILINE | re.DOTALL,
)
_CPP_PARAMS = re.compile(r'extern "C"\s+void\s+kernel\((?P<params>[^)]*)\)', re.DOTALL)
_TRITON_PARAMS = re.compile(r"def \w+\((?P<params>[^)]*)\):")
_BINDING = re.compile(
    r"^\s+(?P<symbol>[su]\d+) = (?P<expr>\w+(?:\.size\(\)\[\d+\]|_size\[\d+\])?)$", re.MULTILINE
)
# Inputs are asserted as ``assert_size_stride(arg0_1, (s77, 3), (3, 1))``; CPU wrappers add
# ``'input'``, GPU wrappers of torch 2.11 do not, so only the wrapper's own args are kept.
_ASSERT = re.compile(r"assert_size_stride\((?P<arg>\w+), \((?P<sizes>[^()]*)\), ")
# Sizes computed in ``call()`` before a launch: ``ps0 = (-2) + s53``,
# ``triton_poi_fused_relu_0_xnumel = 16*s77 + ...``; kernels receive the local name.
_LOCAL_SIZE = re.compile(
    r"^\s+(?P<name>ps\d+|\w+_(?:x|y|z|r0_|r1_)?numel) = (?P<expr>[\w\s*+/%()\-,]+?)\s*$",
    re.MULTILINE,
)
_ARGS = re.compile(r"^\s+(?P<names>\w+(?:, \w+)*),? = args$", re.MULTILINE)


@dataclass(slots=True)
class ParsedKernel:
    """One kernel as written: its name, language, size parameters and source."""

    name: str
    language: str
    params: list[str]
    body: str
    call_args: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ParsedWrapper:
    """One compiled graph's wrapper module."""

    graph: str
    kernels: list[ParsedKernel]
    args: list[str]
    bindings: dict[str, str]
    input_sizes: dict[str, list[str]]


def _params(text: str) -> list[str]:
    names = []
    for raw in text.split(","):
        part = raw.split(":")[0].strip()
        if part:
            names.append(part.split()[-1].lstrip("*&"))
    return names


def _kernels(
    code: str, definition: re.Pattern[str], params: re.Pattern[str], language: str
) -> list[ParsedKernel]:
    kernels = []
    for match in definition.finditer(code):
        found = params.search(match["body"])
        names = _params(found["params"]) if found else []
        kernels.append(ParsedKernel(match["name"], language, names, match["body"]))
    return kernels


def _call_args(code: str, name: str, local_sizes: dict[str, str]) -> list[str]:
    """Arguments of the kernel's call site in ``call()`` (C++: ``name(...)``; Triton: ``.run``).

    A local size variable is replaced by the expression it was assigned.
    """
    match = re.search(rf"^\s+{re.escape(name)}(?:\.run)?\((?P<args>.*)\)\s*$", code, re.MULTILINE)
    if match is None:
        return []
    args = [arg.strip() for arg in split_top_level(match["args"])]
    kept = [arg for arg in args if not arg.startswith(("stream=", "grid="))]
    return [local_sizes.get(arg, arg) for arg in kept]


def parse_output_code(code: str) -> ParsedWrapper:
    """Kernels, their call arguments, symbol bindings and asserted input sizes."""
    graph = _AOT_ID.search(code)
    kernels = _kernels(code, _CPP_DEF, _CPP_PARAMS, "cpp")
    kernels += _kernels(code, _TRITON_DEF, _TRITON_PARAMS, "triton")
    local_sizes = {m["name"]: m["expr"].strip() for m in _LOCAL_SIZE.finditer(code)}
    for kernel in kernels:
        kernel.call_args = _call_args(code, kernel.name, local_sizes)
    found = _ARGS.search(code)
    args = found["names"].split(", ") if found else []
    return ParsedWrapper(
        graph=graph["graph"] if graph else "",
        kernels=kernels,
        args=args,
        bindings={m["symbol"]: m["expr"] for m in _BINDING.finditer(code)},
        input_sizes={
            m["arg"]: [s.strip() for s in m["sizes"].split(",") if s.strip()]
            for m in _ASSERT.finditer(code)
            if m["arg"] in args
        },
    )


_CPP_BOUND = re.compile(r"x\d+<static_cast<int64_t>\((?P<value>\d+)L\)")
_CPP_STEP = re.compile(r"\+=static_cast<int64_t>\((?P<value>\d+)L\)")
_TRITON_NUMEL = re.compile(r"^\s*(?P<what>\w*numel) = (?P<value>\d+)\s*$", re.MULTILINE)
#: Inductor's CPU codegen constants: the reduction accumulation chunk (cpp.py).
CODEGEN_CONSTANTS = frozenset({4096})


def kernel_literals(kernel: ParsedKernel) -> list[tuple[int, str, str]]:
    """(value, kind, context) for each distinct integer a kernel bakes in.

    Loop bounds and Triton ``*numel`` assignments are sizes; loop steps (the vector width)
    and known chunk sizes are codegen constants, not size specializations.
    """
    found: dict[tuple[int, str], str] = {}
    if kernel.language == "cpp":
        for match in _CPP_STEP.finditer(kernel.body):
            found.setdefault((int(match["value"]), "codegen"), "loop step (vector width)")
        for match in _CPP_BOUND.finditer(kernel.body):
            value = int(match["value"])
            kind = "codegen" if value in CODEGEN_CONSTANTS else "size"
            found.setdefault((value, kind), match.group(0))
    for match in _TRITON_NUMEL.finditer(kernel.body):
        found.setdefault((int(match["value"]), "size"), match.group(0).strip())
    return [(value, kind, context) for (value, kind), context in found.items()]

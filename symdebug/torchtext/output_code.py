"""Parse Inductor's output code (the ``inductor_output_code`` payload).

What we read: kernels, their size arguments and literals, and the sizes the wrapper asserts
for each graph input.

CPU kernels are C++ (``async_compile.cpp_pybinding([...], r'''...''')``, sizes as
``const int64_t ks0``); GPU kernels are Triton (``async_compile.triton('name', '''...''')``,
sizes as ``ks0`` parameters and ``xnumel``).  Call sites in ``call()`` pass the wrapper's
expressions (``s77``) in parameter order, which maps ``ks0`` to a symbol.

The code is long (most of it kernel source), so the line-anchored patterns are not run over
all of it: ``str.find`` locates the few lines holding a pattern's literal part, and the
pattern is matched only there (:func:`_finditer`), finding exactly what ``finditer`` would.
The wrapper's own code (``call()``, after the last kernel) is read line by line, each line's
fact remembered: a frame's recompiles repeat it almost whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

from symdebug.model.code_types import KernelLiteral
from symdebug.torchtext.graph_dump import split_top_level
from symdebug.torchtext.text_memo import TextMemo

_AOT_ID = re.compile(r"^# AOT ID: \['(?P<graph>[^']+)'\]", re.MULTILINE)
_AOT_LITERAL = "# AOT ID: ['"
_DEFINES = " = async_compile."
# A definition's head; its body runs to the first closing quotes after it, as a DOTALL
# ``(?P<body>.*?)'''`` would, but found by ``str.find``.
_CPP_DEF = re.compile(
    r"^(?P<name>\w+) = async_compile\.cpp_pybinding\(\[(?P<types>[^\]]*)\], r'''", re.MULTILINE
)
_CPP_END = "''')"
_TRITON_DEF = re.compile(
    r"^(?P<name>\w+) = async_compile\.triton\('(?P<kernel>\w+)', '''", re.MULTILINE
)
_TRITON_END = "'''"
_CPP_PARAMS = re.compile(r'extern "C"\s+void\s+kernel\((?P<params>[^)]*)\)', re.DOTALL)
_TRITON_PARAMS = re.compile(r"def \w+\((?P<params>[^)]*)\):")
# Inputs are asserted as ``assert_size_stride(arg0_1, (s77, 3), (3, 1))``; CPU wrappers add
# ``'input'``, GPU wrappers of torch 2.11 do not, so only the wrapper's own args are kept.
_ASSERT = re.compile(r"assert_size_stride\((?P<arg>\w+), \((?P<sizes>[^()]*)\), ")
_ASSERT_LITERAL = "assert_size_stride("
# Sizes computed in ``call()`` before a launch: ``ps0 = (-2) + s53``,
# ``triton_poi_fused_relu_0_xnumel = 16*s77 + ...``; kernels receive the local name.
_LOCAL_SIZE = re.compile(
    r"^\s+(?P<name>ps\d+|\w+_(?:x|y|z|r0_|r1_)?numel) = (?P<expr>[\w\s*+/%()\-,]+?)\s*$",
    re.MULTILINE,
)
_NUMEL = "numel = "
_PS = re.compile(r"ps\d+ = ")
_ARGS = re.compile(r"^\s+(?P<names>\w+(?:, \w+)*),? = args$", re.MULTILINE)
_ARGS_LITERAL = " = args"
# A kernel's call site: ``name(...)`` (C++) or ``name.run(...)`` (Triton).
_CALL = re.compile(r"^\s+(?P<name>\w+)(?:\.run)?\((?P<args>.*)\)\s*$", re.MULTILINE)
#: A Triton launch's keyword arguments, not the kernel's own.
_LAUNCH = ("stream=", "grid=")


#: (value, kind, context) of an integer a kernel bakes in.
BakedInt = tuple[int, str, str]


@dataclass(frozen=True, slots=True)
class KernelText:
    """What a kernel's source says, wherever the same source recurs (a frame's recompiles).

    Its parameters, the integers it bakes in, and the source itself without the blank
    lines around it.
    """

    params: tuple[str, ...]
    literals: tuple[KernelLiteral, ...]
    source: str
    #: (index, name) of the parameters that take a size: ``ks0`` (any value) and ``xnumel``
    #: (a size only where the call passes an expression, not a literal).
    size_params: tuple[tuple[int, str], ...] = ()


def _size_params(params: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The parameters that may take a size, with their positions."""
    return tuple((i, p) for i, p in enumerate(params) if p.startswith("ks") or p.endswith("numel"))


@dataclass(slots=True)
class ParsedKernel:
    """One kernel as written: its name, language, what its source says, its call's args."""

    name: str
    language: str
    text: KernelText
    call_args: list[str] = field(default_factory=list)


#: A kernel and the span of its body in the output code.
_Defined = tuple[ParsedKernel, int, int]


@dataclass(slots=True)
class ParsedWrapper:
    """One compiled graph's wrapper module."""

    graph: str
    kernels: list[ParsedKernel]
    args: list[str]
    input_sizes: dict[str, list[str]]


def _found(text: str, literal: str) -> Iterator[int]:
    """Every index of ``literal`` in ``text``, in order."""
    index = text.find(literal)
    while index >= 0:
        yield index
        index = text.find(literal, index + len(literal))


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _lines(text: str, indexes: Iterable[int]) -> list[int]:
    """Sorted distinct starts of the lines holding ``indexes``."""
    return sorted({_line_start(text, index) for index in indexes})


def _run_starts(text: str, line: int, floor: int) -> list[int]:
    """``line`` and the starts of the blank lines right above it, none before ``floor``.

    A pattern led by ``^`` and whitespace that reaches ``line``'s text can start at any of them.
    """
    starts = [line]
    while starts[-1] > floor:
        above = _line_start(text, starts[-1] - 1)
        if above < floor or text[above : starts[-1] - 1].strip():
            break
        starts.append(above)
    return starts[::-1]


def _match_at(
    pattern: re.Pattern[str], text: str, line: int, floor: int = 0
) -> re.Match[str] | None:
    """The leftmost match starting at ``line`` or a blank line above it (not before ``floor``)."""
    for start in _run_starts(text, line, floor):
        if (found := pattern.match(text, start)) is not None:
            return found
    return None


def _finditer(pattern: re.Pattern[str], text: str, lines: Iterable[int]) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, for a ``^``-anchored pattern that only ``lines`` can hold.

    ``lines`` are line starts in order; each match's first non-blank line must be one of them.
    """
    end = 0
    for line in lines:
        if line >= end and (found := _match_at(pattern, text, line, end)) is not None:
            end = found.end()
            yield found


def _params(text: str) -> list[str]:
    names = []
    for raw in text.split(","):
        part = raw.split(":")[0].strip()
        if part:
            names.append(part.split()[-1].lstrip("*&"))
    return names


@dataclass(frozen=True, slots=True)
class _Language:
    """How one language's kernels are defined: head pattern, closing quotes, parameters."""

    name: str
    head: re.Pattern[str]
    close: str
    params: re.Pattern[str]


_CPP = _Language("cpp", _CPP_DEF, _CPP_END, _CPP_PARAMS)
_TRITON = _Language("triton", _TRITON_DEF, _TRITON_END, _TRITON_PARAMS)


def _definitions(
    code: str, language: _Language, lines: list[int]
) -> Iterator[tuple[str, int, int]]:
    """(name, body start, body end) of each definition, in order and not overlapping.

    As ``finditer`` would find them: a head starts with a name at a line start, so only the
    ``lines`` themselves can start one.
    """
    end = 0
    for line in lines:
        if line >= end and (found := language.head.match(code, line)) is not None:
            closing = code.find(language.close, found.end())
            if closing >= 0:
                end = closing + len(language.close)
                yield found["name"], found.end(), closing


def _kernel_text(language: _Language, body: str) -> KernelText:
    found = language.params.search(body)
    params = tuple(_params(found["params"])) if found else ()
    literals = tuple(KernelLiteral(*found) for found in kernel_literals(language.name, body))
    return KernelText(params, literals, body.strip(), _size_params(params))


_KERNEL_TEXTS = {
    language.name: TextMemo(partial(_kernel_text, language), limit=1024)
    for language in (_CPP, _TRITON)
}


def _kernels(code: str, language: _Language, lines: list[int]) -> list[_Defined]:
    texts = _KERNEL_TEXTS[language.name]
    return [
        (ParsedKernel(name, language.name, texts.get(code[begin:end])), begin, end)
        for name, begin, end in _definitions(code, language, lines)
    ]


def _after_definitions(code: str, defined: list[_Defined]) -> str:
    """The wrapper's own code: what follows the last kernel definition.

    Inductor defines every kernel, waits for them to compile, and only then defines
    ``call()`` (and the partitions it runs), so every call site, local size, input assert
    and the unpacking of ``args`` lies after the last definition.  Before it are imports,
    kernels and the comment blocks above each kernel, most of the text and nothing the
    wrapper's patterns look for (a Triton body's ``r0_numel = 64`` is the kernel's own, not
    a size ``call()`` computes).
    """
    return code[max((end for _, _, end in defined), default=0) :]


class WrapperLine(NamedTuple):
    """What one line of the wrapper's own code holds (immutable: shared between compiles).

    A local size (``ps0 = (-2) + s53``), a call site, input asserts, ``args`` unpacked.
    """

    local_size: tuple[str, str] | None
    #: The name called and its arguments (a Triton launch's own keywords left out).
    call: tuple[str, tuple[str, ...]] | None
    asserts: tuple[tuple[str, tuple[str, ...]], ...]
    unpacked: tuple[str, ...] | None


def _called(call: re.Match[str]) -> tuple[str, tuple[str, ...]]:
    stripped = (arg.strip() for arg in split_top_level(call["args"]))
    return call["name"], tuple(arg for arg in stripped if not arg.startswith(_LAUNCH))


def wrapper_line(line: str) -> WrapperLine | None:
    """What one line holds; each pattern is tried only where its literal part is."""
    size = _LOCAL_SIZE.match(line) if _NUMEL in line or _PS.search(line) else None
    call = _CALL.match(line) if "(" in line else None
    asserts = tuple(
        (m["arg"], tuple(part.strip() for part in m["sizes"].split(",") if part.strip()))
        for m in (_ASSERT.finditer(line) if _ASSERT_LITERAL in line else ())
    )
    unpacked = _ARGS.match(line) if _ARGS_LITERAL in line else None
    if size is None and call is None and not asserts and unpacked is None:
        return None
    return WrapperLine(
        (size["name"], size["expr"].strip()) if size else None,
        _called(call) if call else None,
        asserts,
        tuple(unpacked["names"].split(", ")) if unpacked else None,
    )


_WRAPPER_LINES: TextMemo[WrapperLine | None] = TextMemo(wrapper_line)


@dataclass(slots=True)
class _Wrapper:
    """What the wrapper's lines say.

    The last value of each local size, the first call of each name, every input assert,
    and the first ``args`` unpacking.
    """

    local_sizes: dict[str, str] = field(default_factory=dict)
    calls: dict[str, tuple[str, ...]] = field(default_factory=dict)
    asserts: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    args: tuple[str, ...] | None = None


def _read_wrapper(code: str) -> _Wrapper:
    """The wrapper's facts, read line by line; a frame's recompiles repeat most lines.

    Lines end at a newline only, as the patterns' ``^`` and ``$`` see them.
    """
    found = _Wrapper()
    sizes, calls, asserts = found.local_sizes, found.calls, found.asserts
    for local_size, call, asserted, unpacked in filter(
        None, _WRAPPER_LINES.all_of(code.split("\n"))
    ):
        if local_size is not None:
            sizes[local_size[0]] = local_size[1]
        if call is not None and call[0] not in calls:
            calls[call[0]] = call[1]
        asserts += asserted
        if found.args is None:
            found.args = unpacked
    return found


def _call_args(wrapper: _Wrapper, name: str) -> list[str]:
    """Arguments of the kernel's call site in ``call()`` (C++: ``name(...)``; Triton: ``.run``).

    A local size variable is replaced by the expression it was assigned.
    """
    sizes = wrapper.local_sizes
    return [sizes.get(arg, arg) for arg in wrapper.calls.get(name, ())]


def _definition_lines(code: str) -> list[int]:
    """Starts of the lines that may define a kernel."""
    return _lines(code, _found(code, _DEFINES))


def _all_kernels(code: str, lines: list[int]) -> list[_Defined]:
    """C++ kernels, then Triton kernels, each in order of definition, with its body's span."""
    return _kernels(code, _CPP, lines) + _kernels(code, _TRITON, lines)


def _graph(code: str) -> str:
    """The compiled graph's AOT id, from the first ``# AOT ID: ['...']`` line."""
    lines = (_line_start(code, index) for index in _found(code, _AOT_LITERAL))
    found = next(_finditer(_AOT_ID, code, lines), None)
    return found["graph"] if found else ""


def parse_output_code(code: str) -> ParsedWrapper:
    """Kernels, their call arguments and asserted input sizes."""
    defined = _all_kernels(code, _definition_lines(code))
    kernels = [kernel for kernel, _, _ in defined]
    wrapper = _read_wrapper(_after_definitions(code, defined))
    for kernel in kernels:
        kernel.call_args = _call_args(wrapper, kernel.name)
    args = list(wrapper.args or ())
    return ParsedWrapper(
        graph=_graph(code),
        kernels=kernels,
        args=args,
        input_sizes={arg: list(sizes) for arg, sizes in wrapper.asserts if arg in args},
    )


_CPP_BOUND = re.compile(r"x\d+<static_cast<int64_t>\((?P<value>\d+)L\)")
_CPP_STEP = re.compile(r"\+=static_cast<int64_t>\((?P<value>\d+)L\)")
_TRITON_NUMEL = re.compile(r"^\s*(?P<what>\w*numel) = (?P<value>\d+)\s*$", re.MULTILINE)
#: Inductor's CPU codegen constants: the reduction accumulation chunk (cpp.py).
CODEGEN_CONSTANTS = frozenset({4096})


def _numels(body: str) -> Iterator[re.Match[str]]:
    """``_TRITON_NUMEL.finditer(body)``, matched only on lines holding ``numel = ``."""
    return _finditer(_TRITON_NUMEL, body, _lines(body, _found(body, _NUMEL)))


def kernel_literals(language: str, body: str) -> list[BakedInt]:
    """(value, kind, context) for each distinct integer a kernel bakes in.

    Loop bounds and Triton ``*numel`` assignments are sizes; loop steps (the vector width)
    and known chunk sizes are codegen constants, not size specializations.
    """
    found: dict[tuple[int, str], str] = {}
    if language == "cpp":
        for match in _CPP_STEP.finditer(body):
            found.setdefault((int(match["value"]), "codegen"), "loop step (vector width)")
        for match in _CPP_BOUND.finditer(body):
            value = int(match["value"])
            kind = "codegen" if value in CODEGEN_CONSTANTS else "size"
            found.setdefault((value, kind), match.group(0))
    for match in _numels(body):
        found.setdefault((int(match["value"]), "size"), match.group(0).strip())
    return [(value, kind, context) for (value, kind), context in found.items()]

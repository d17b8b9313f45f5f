"""Kernels and baked-in sizes of one compile, from ``inductor_output_code`` events."""

from __future__ import annotations

import re
from collections.abc import Mapping

from symdebug.builders.compile_group import CompileEvents
from symdebug.model import json_text
from symdebug.model.code_types import (
    GraphCode,
    Kernel,
    KernelSizeArg,
    SpecializedDim,
)
from symdebug.model.types import Symbol
from symdebug.model.values import CompileId, Source
from symdebug.torchtext.graph_dump import Placeholder, parse_placeholders
from symdebug.torchtext.output_code import (
    ParsedKernel,
    ParsedWrapper,
    parse_output_code,
)
from symdebug.torchtext.symbol_names import free_symbols
from symdebug.torchtext.text_memo import TextMemo

PROVENANCE = "artifact:inductor_provenance_tracking_node_mappings"


def mangle(source: str) -> str:
    """``L['w']`` -> ``L_w_``, the way Dynamo names a graph placeholder after its source."""
    return re.sub(r"[^A-Za-z0-9]+", "_", source)


def kernel_nodes(mapping: dict[str, object]) -> dict[str, tuple[str, ...]]:
    """Kernel name -> the FX nodes it computes (pre-grad names where known), in one pass.

    Handles are ``name:<debug handle>``; every ``*CodeToPost`` table adds to the name.
    """
    post_to_pre = mapping.get("postToPre")
    pre = post_to_pre if isinstance(post_to_pre, dict) else {}
    nodes: dict[str, list[str]] = {}
    for key, value in mapping.items():
        if not key.endswith("CodeToPost") or not isinstance(value, dict):
            continue
        for handle, posts in value.items():
            found = nodes.setdefault(str(handle).split(":")[0], [])
            found += [n for post in posts for n in pre.get(post, [post])]
    return {name: tuple(dict.fromkeys(found)) for name, found in nodes.items()}


def _payload_nodes(payload: str) -> dict[str, tuple[str, ...]]:
    return kernel_nodes(_json(payload))


#: The nodes of each provenance payload: the same graph maps its kernels the same way, so
#: a frame's recompiles mostly repeat it (and each is large: most of it tables not read).
_NODES: TextMemo[Mapping[str, tuple[str, ...]]] = TextMemo(_payload_nodes, limit=64)


def _kernel(
    parsed: ParsedKernel,
    cid: CompileId,
    graph: str,
    sources: dict[str, list[Source]],
    nodes: Mapping[str, tuple[str, ...]],
) -> Kernel:
    size_args = []
    args = parsed.call_args
    for index, param in parsed.text.size_params:
        if index >= len(args):
            break  # a call passing fewer arguments: the rest have no value here
        expr = args[index]
        if param.startswith("ks") or not expr.isdigit():
            symbols = free_symbols(expr)
            found = [s for sym in symbols for s in sources.get(sym, [])[:1]]
            size_args.append(KernelSizeArg(param, expr, symbols, found))
    return Kernel(
        compile_id=cid,
        name=parsed.name,
        graph=graph,
        language=parsed.language,
        size_args=size_args,
        literals=list(parsed.text.literals),
        nodes=list(nodes.get(parsed.name, [])),
        source=parsed.text.source,
    )


def _bases(sources: dict[str, list[Source]]) -> dict[str, str]:
    """Placeholder name -> the source it was named after (``L_w_`` -> ``L['w']``)."""
    bases: dict[str, str] = {}
    for candidates in sources.values():
        for source in candidates:
            base = source.rsplit(".size()[", 1)[0]
            bases.setdefault(mangle(base), base)
    return bases


def _first_source(symbol: str, sources: dict[str, list[Source]]) -> Source:
    return next(iter(sources.get(symbol, [])), Source(symbol))


def _specialized(
    wrapper: ParsedWrapper, placeholders: list[Placeholder], sources: dict[str, list[Source]]
) -> list[SpecializedDim]:
    if len(wrapper.args) != len(placeholders):
        return []  # not aligned (e.g. a backward graph): nothing to compare against
    bases = _bases(sources)
    found: dict[str, SpecializedDim] = {}
    for arg, placeholder in zip(wrapper.args, placeholders, strict=True):
        if not placeholder.symbolic_dims:
            continue  # every dim a literal already: nothing Inductor could have baked in
        base = bases.get(placeholder.name)
        sizes = wrapper.input_sizes.get(arg, [])
        for dim in placeholder.symbolic_dims:
            before, after = placeholder.sizes[dim], sizes[dim] if dim < len(sizes) else ""
            if after.isdigit():
                # A duck-sized dim shares its symbol with another input's: name it by its own
                # placeholder, not by the symbol's first source.
                source = Source.size(base, dim) if base else _first_source(before, sources)
                found.setdefault(
                    source, SpecializedDim(source, before, int(after), placeholder.name)
                )
    return list(found.values())


def build_kernels(
    group: CompileEvents, symbols: list[Symbol]
) -> tuple[list[Kernel], list[GraphCode]]:
    """Kernels with their size arguments and literals; dims baked in per compiled graph."""
    cid = group.compile_id
    sources: dict[str, list[Source]] = {s.name: s.sources for s in symbols if s.sources}
    graph_event = group.last("dynamo_output_graph")
    placeholders = parse_placeholders(graph_event.payload or "") if graph_event else []
    mappings = [_NODES.get(e.payload or "") for e in group.named(PROVENANCE)]
    kernels: list[Kernel] = []
    codes: list[GraphCode] = []
    for index, event in enumerate(group.named("inductor_output_code")):
        wrapper = parse_output_code(event.payload or "")
        nodes = mappings[index] if index < len(mappings) else {}
        kernels += [_kernel(k, cid, wrapper.graph, sources, nodes) for k in wrapper.kernels]
        backward = wrapper.graph.endswith("backward")
        dims = [] if backward else _specialized(wrapper, placeholders, sources)
        codes.append(GraphCode(cid, wrapper.graph, wrapper.input_sizes, dims))
    return kernels, codes


def _json(payload: str | None) -> dict[str, object]:
    try:
        value = json_text.loads(payload or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}

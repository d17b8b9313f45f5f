"""``session.graph``: the session's facts as one typed ``networkx.MultiDiGraph``.

Nodes are keyed ``"<kind>:<id>"`` and carry a ``kind`` attribute; edges carry a ``kind``
(``constrains``, ``size_of``, ``raised_at``, ``added_during``, ``caused_by``,
``replaced_by``, ``computes``, ``takes``, ``in_compile``, ``explains``).  It is a view of the
facts, rebuilt from them; nothing here is a fact of its own.

Every attribute is a plain ``str``, ``int``, ``float`` or ``bool``, as GraphML holds them: a
``Source`` or ``CompileId`` is its text, a container its JSON text, and a missing value (None)
is no attribute at all.  ``nx.write_graphml(session.graph, path)`` writes it as it is.
"""

from __future__ import annotations

import json
import os
from itertools import chain
from pathlib import Path
from typing import Any

import networkx as nx

from symdebug.graph_paths import follow, guards_of_node, nodes_of_source, path_to_user_line
from symdebug.model.code_types import FxNode, Kernel
from symdebug.model.types import Facts, Frame, Guard, Recompile, Symbol

# The walks of a built graph live in .graph_paths (a question that walks a graph it is
# given needs no networkx module); they are this module's names too, as they always were.
__all__ = [
    "Provenance",
    "build_graph",
    "follow",
    "guards_of_node",
    "nodes_of_source",
    "path_to_user_line",
    "portable",
    "read_graph",
    "write_graph",
]


def _edge(graph: nx.MultiDiGraph, source: str, target: str, **attrs: Any) -> None:
    """Add an edge between two facts that exist (a link to nothing is not a fact)."""
    if source in graph and target in graph:
        graph.add_edge(source, target, **attrs)


def _fact(graph: nx.MultiDiGraph, key: str, compile_id: str, /, **attrs: Any) -> None:
    """A node for one fact, and its edge to the compile it belongs to."""
    graph.add_node(key, **attrs)
    _edge(graph, key, f"compile:{compile_id}", kind="in_compile")


def _frame_key(frame: Frame) -> str:
    return f"frame:{frame.filename}:{frame.lineno}"


def _add_frame(graph: nx.MultiDiGraph, owner: str, frame: Frame) -> None:
    """A user line (one node per file:line), and the edge from what was raised there."""
    key = _frame_key(frame)
    graph.add_node(key, kind="frame", filename=frame.filename, lineno=frame.lineno, line=frame.line)
    _edge(graph, owner, key, kind="raised_at")


def _add_guard(graph: nx.MultiDiGraph, guard: Guard) -> None:
    key = f"guard:{guard.id}"
    _fact(
        graph,
        key,
        guard.compile_id,
        kind="guard",
        expr=guard.expr,
        cause=guard.cause,
        status=guard.status,
        phase=guard.phase,
    )
    for symbol in guard.symbols:
        _edge(graph, key, f"symbol:{guard.compile_id}:{symbol}", kind="constrains")
    if guard.user_frame is not None:
        _add_frame(graph, key, guard.user_frame)
    if guard.kernel is not None:
        kernel = f"kernel:{guard.compile_id}:{guard.aot_graph}:{guard.kernel}"
        _edge(graph, key, kernel, kind="added_during")
    if guard.fx_node is not None:
        _edge(
            graph,
            key,
            f"fxnode:{guard.compile_id}:{guard.fx_node}",
            kind="added_during",
            inferred=guard.fx_node_inferred,
        )


def _add_symbol(graph: nx.MultiDiGraph, symbol: Symbol) -> None:
    key = f"symbol:{symbol.compile_id}:{symbol.name}"
    _fact(
        graph,
        key,
        symbol.compile_id,
        kind="symbol",
        name=symbol.name,
        state=symbol.state,
        hint=symbol.hint,
    )
    for source in symbol.sources:
        graph.add_node(f"source:{source}", kind="source", source=source)
        _edge(graph, key, f"source:{source}", kind="size_of")


def _add_fx_node(graph: nx.MultiDiGraph, node: FxNode) -> None:
    key = f"fxnode:{node.compile_id}:{node.name}"
    _fact(
        graph,
        key,
        node.compile_id,
        kind="fx_node",
        name=node.name,
        target=node.target,
        lineno=node.lineno,
        code=node.code,
    )
    if node.filename:
        _add_frame(graph, key, Frame(node.filename, node.lineno, "", node.code))


def _add_kernel(graph: nx.MultiDiGraph, kernel: Kernel) -> None:
    key = f"kernel:{kernel.compile_id}:{kernel.graph}:{kernel.name}"
    _fact(
        graph,
        key,
        kernel.compile_id,
        kind="kernel",
        name=kernel.name,
        graph=kernel.graph,
        language=kernel.language,
    )
    for node in kernel.nodes:
        _edge(graph, key, f"fxnode:{kernel.compile_id}:{node}", kind="computes")
    for arg in kernel.size_args:
        for symbol in arg.symbols:
            _edge(graph, key, f"symbol:{kernel.compile_id}:{symbol}", kind="takes", param=arg.param)


def _add_recompile(graph: nx.MultiDiGraph, recompile: Recompile) -> None:
    key = f"recompile:{recompile.compile_id}"
    _fact(
        graph,
        key,
        recompile.compile_id,
        kind="recompile",
        cause=recompile.cause,
        reason=recompile.reasons[0] if recompile.reasons else "",
    )
    if recompile.failed_entry is not None:
        _edge(
            graph,
            f"compile:{recompile.failed_entry}",
            f"compile:{recompile.compile_id}",
            kind="replaced_by",
        )
    if recompile.guard is not None:
        _edge(graph, key, f"guard:{recompile.guard.id}", kind="caused_by")
    if recompile.specialization is not None:
        _edge(graph, key, f"source:{recompile.specialization.source}", kind="caused_by")


def build_graph(facts: Facts) -> nx.MultiDiGraph:
    """The provenance graph of a session."""
    graph = nx.MultiDiGraph()
    for compile_ in facts.compiles:
        graph.add_node(
            f"compile:{compile_.compile_id}",
            kind="compile",
            name=compile_.name,
            status=compile_.status,
        )
    for symbol in facts.symbols:
        _add_symbol(graph, symbol)
    for node in facts.fx_nodes:
        _add_fx_node(graph, node)
    for kernel in facts.kernels:
        _add_kernel(graph, kernel)
    for guard in facts.guards:
        _add_guard(graph, guard)
    for recompile in facts.recompiles:
        _add_recompile(graph, recompile)
    for spec in facts.specializations:
        graph.add_node(f"source:{spec.source}", kind="source", source=spec.source)
        for guard in spec.guards:
            _edge(
                graph,
                f"guard:{guard.id}",
                f"source:{spec.source}",
                kind="explains",
                compile=spec.compile_id,
            )
    _make_plain(graph)
    return graph


#: The types GraphML holds, as they are.
_GRAPHML_TYPES = (str, int, float, bool)


def _scalar(value: object) -> str | int | float | bool:
    """A value as GraphML holds it: typed text (``Source``) as ``str``, containers as JSON."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)  # a Source or CompileId as the plain text GraphML writes
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return json.dumps(value, default=str)


def _plain_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """The attributes GraphML can hold: None left out, every other value a plain scalar."""
    return {
        name: value if type(value) in _GRAPHML_TYPES else _scalar(value)
        for name, value in attributes.items()
        if value is not None
    }


def _make_plain(graph: nx.MultiDiGraph) -> None:
    """Each node's and edge's attributes made plain, in place (see :func:`_plain_attributes`)."""
    nodes = (d for _, d in graph.nodes(data=True))
    edges = (d for *_, d in graph.edges(data=True))
    for data in chain(nodes, edges):
        if any(type(value) not in _GRAPHML_TYPES for value in data.values()):
            plain = _plain_attributes(data)
            data.clear()
            data.update(plain)


def portable(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes GraphML can hold (None left out, containers as JSON text).

    Parameters
    ----------
    graph
        Any graph (a :func:`build_graph` one is portable already).

    Returns
    -------
    networkx.MultiDiGraph
        A copy with plain attributes.
    """
    copy = nx.MultiDiGraph()
    copy.add_nodes_from((n, _plain_attributes(d)) for n, d in graph.nodes(data=True))
    copy.add_edges_from(
        (a, b, key, _plain_attributes(d)) for a, b, key, d in graph.edges(keys=True, data=True)
    )
    return copy


def write_graph(graph: nx.MultiDiGraph, path: str | os.PathLike[str]) -> None:
    """Write GraphML (``.graphml``) or node-link JSON (``.json``), by the file's suffix."""
    target = Path(path)
    if target.suffix == ".json":
        data = nx.node_link_data(portable(graph), edges="edges")
        target.write_text(json.dumps(data), encoding="utf-8")
    elif target.suffix == ".graphml":
        nx.write_graphml(portable(graph), target)
    else:
        raise ValueError(f"unknown graph format {target.suffix!r}: use .graphml or .json")


def read_graph(path: str | os.PathLike[str]) -> nx.MultiDiGraph:
    """Read a graph written by :func:`write_graph`."""
    source = Path(path)
    if source.suffix == ".json":
        data = json.loads(source.read_text(encoding="utf-8"))
        return nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")
    return nx.read_graphml(source, force_multigraph=True)


class Provenance:
    """The graph of one state of a session's facts, built once; and its export.

    What a session holds of this module (imported on a graph's first use: networkx is more
    than reading a log needs).
    """

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.graph = build_graph(facts)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the graph (see :func:`write_graph`)."""
        write_graph(self.graph, path)

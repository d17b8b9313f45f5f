"""``nx.write_graphml(session.graph, path)`` on a real capture, and ``nx.read_graphml`` reads back
the same nodes, edges and attribute values (issue 31, point 13): every attribute of the graph is
a plain ``str``, ``int``, ``float`` or ``bool`` (a ``Source`` or ``CompileId`` as its text, no
``None``), from a run with recompiles, a graph break, guards, kernels and a module attribute."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
import torch

import symdebug


class Scaled(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.k = 2

    def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
        if x.shape[0] > 4:  # a branch on a size
            x = x * self.k
        torch._dynamo.graph_break()
        return x.view(-1, 2).sum(0) + n


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    torch._dynamo.reset()
    model = Scaled()
    with symdebug.capture() as captured:
        compiled = torch.compile(model, backend="inductor")
        for rows, n in ((8, 1), (6, 2), (4, 2)):
            compiled(torch.randn(rows), n)
        model.k = 3
        compiled(torch.randn(4), 2)
    return captured


def _nodes(graph: nx.Graph) -> dict[str, dict[str, str]]:
    return {n: {k: str(v) for k, v in d.items()} for n, d in graph.nodes(data=True)}


def _edges(graph: nx.MultiDiGraph) -> Counter[tuple[str, str, str, frozenset[tuple[str, str]]]]:
    """Each edge, by its ends and key, and its attributes, as text."""
    return Counter(
        (a, b, str(key), frozenset((k, str(v)) for k, v in d.items()))
        for a, b, key, d in graph.edges(keys=True, data=True)
    )


def _round_trip(graph: nx.MultiDiGraph, path: Path) -> Any:
    """Written by networkx's GraphML writer, read by its reader (parallel edges kept apart)."""
    nx.write_graphml(graph, path)
    return nx.read_graphml(path, force_multigraph=True)


def test_the_capture_has_what_the_graph_must_hold(session: symdebug.Session) -> None:
    assert session.recompiles and session.guards and session.symbols
    assert session.facts.graph_breaks, "the program breaks its graph"
    kinds = {d["kind"] for _, d in session.graph.nodes(data=True)}
    assert kinds >= {"compile", "guard", "symbol", "source", "frame", "recompile", "kernel"}


def test_every_attribute_is_a_plain_graphml_value(session: symdebug.Session) -> None:
    graph = session.graph
    values = [v for _, d in graph.nodes(data=True) for v in d.values()]
    values += [v for *_, d in graph.edges(data=True) for v in d.values()]
    assert {type(v) for v in values} <= {str, int, float, bool}
    sources = [d["source"] for _, d in graph.nodes(data=True) if d["kind"] == "source"]
    assert "L['x'].size()[0]" in sources and all(type(s) is str for s in sources)


def test_write_graphml_reads_back_the_same_graph(session: symdebug.Session, tmp_path: Path) -> None:
    graph = session.graph
    back = _round_trip(graph, tmp_path / "session.graphml")
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert back.number_of_edges() == graph.number_of_edges()
    assert _nodes(back) == _nodes(graph)
    assert _edges(back) == _edges(graph)
    recompiles = [n for n, d in back.nodes(data=True) if d["kind"] == "recompile"]
    assert len(recompiles) == len(session.recompiles)


def test_a_saved_and_loaded_session_writes_graphml_too(
    session: symdebug.Session, tmp_path: Path
) -> None:
    session.save(tmp_path / "s.json")
    loaded = symdebug.load(tmp_path / "s.json")
    back = _round_trip(loaded.graph, tmp_path / "loaded.graphml")
    assert _nodes(back) == _nodes(session.graph)
    assert _edges(back) == _edges(session.graph)

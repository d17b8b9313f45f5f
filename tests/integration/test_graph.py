"""session.graph: typed nodes and edges, helpers, GraphML and node-link JSON round trips."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from scenarios import capture_branch_and_view  # tests/ is on sys.path

import symdebug
from symdebug.graph import guards_of_node, nodes_of_source, path_to_user_line, read_graph


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    return capture_branch_and_view()[0]


def test_typed_nodes_and_edges(session: symdebug.Session) -> None:
    graph = session.graph
    kinds = {d["kind"] for _, d in graph.nodes(data=True)}
    assert kinds >= {
        "compile",
        "guard",
        "symbol",
        "source",
        "fx_node",
        "kernel",
        "frame",
        "recompile",
    }
    edge_kinds = {d["kind"] for *_, d in graph.edges(data=True)}
    assert edge_kinds >= {
        "constrains",
        "size_of",
        "raised_at",
        "added_during",
        "caused_by",
        "replaced_by",
        "computes",
        "takes",
        "in_compile",
    }
    assert all("kind" in d for _, d in graph.nodes(data=True))  # no dangling, untyped node


def test_helpers(session: symdebug.Session) -> None:
    graph = session.graph
    view_guards = guards_of_node(graph, "0/0", "view")
    assert view_guards and all(graph.nodes[g]["kind"] == "guard" for g in view_guards)
    assert "fxnode:0/0:view" in nodes_of_source(graph, "L['x'].size()[0]")
    path = path_to_user_line(graph, "0/1")
    assert path[0] == "recompile:0/1" and path[1].startswith("guard:")
    assert graph.nodes[path[1]]["expr"] == "s77 > 4"
    assert graph.nodes[path[-1]]["kind"] == "frame" and "# BRANCH" in graph.nodes[path[-1]]["line"]


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_export_round_trips(session: symdebug.Session, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"session{suffix}"
    session.export_graph(path)
    loaded = read_graph(path)
    assert loaded.number_of_nodes() == session.graph.number_of_nodes()
    assert loaded.number_of_edges() == session.graph.number_of_edges()
    if suffix == ".graphml":
        again = nx.read_graphml(path)
        assert again.number_of_nodes() == session.graph.number_of_nodes()
        assert again.number_of_edges() == session.graph.number_of_edges()


def test_graph_survives_save_and_load(session: symdebug.Session, tmp_path: Path) -> None:
    session.save(tmp_path / "s.json")
    loaded = symdebug.load(tmp_path / "s.json")
    assert loaded.facts.kernels == session.facts.kernels and loaded.facts.kernels
    assert loaded.facts.fx_nodes == session.facts.fx_nodes
    assert nx.utils.graphs_equal(loaded.graph, session.graph)


def test_why_walks_the_graph(session: symdebug.Session) -> None:
    explanation = session.why("x", 0)
    chain = explanation.chains["0/1"]
    assert chain[0].startswith("guard s77 > 4")
    assert chain[1].startswith("no FX node: Python control flow")
    assert "# BRANCH" in chain[-1]
    assert "-> guard s77 > 4" in str(explanation)

"""Walks of a built provenance graph (:mod:`symdebug.graph`), networkx's module not needed.

A recompile to its user line, an FX node's guards, a source's FX nodes.  They call only the
graph's own methods, so this module imports no networkx: a question that walks a graph it
was given (``why``'s recompile chains) loads nothing more than the graph did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


def guards_of_node(graph: nx.MultiDiGraph, compile_id: str, node: str) -> list[str]:
    """Guard keys added while tracing one FX node."""
    key = f"fxnode:{compile_id}:{node}"
    if key not in graph:
        return []
    return [a for a, _, d in graph.in_edges(key, data=True) if d.get("kind") == "added_during"]


def nodes_of_source(graph: nx.MultiDiGraph, source: str) -> list[str]:
    """FX node keys whose guards constrain a symbol that is the size of ``source``."""
    key = f"source:{source}"
    if key not in graph:
        return []
    symbols = [a for a, _, d in graph.in_edges(key, data=True) if d.get("kind") == "size_of"]
    guards = [
        g
        for s in symbols
        for g, _, d in graph.in_edges(s, data=True)
        if d.get("kind") == "constrains"
    ]
    nodes = [
        n
        for g in guards
        for _, n, d in graph.out_edges(g, data=True)
        if d.get("kind") == "added_during"
    ]
    return list(dict.fromkeys(nodes))


def follow(graph: nx.MultiDiGraph, key: str, kind: str) -> str | None:
    """The first node reached from ``key`` over an edge of this kind."""
    if key not in graph:
        return None
    return next((b for _, b, d in graph.out_edges(key, data=True) if d.get("kind") == kind), None)


def path_to_user_line(graph: nx.MultiDiGraph, compile_id: str) -> list[str]:
    """Recompile -> the guard whose check failed -> its FX node (if any) -> its user line."""
    path = [f"recompile:{compile_id}"]
    guard = follow(graph, path[0], "caused_by")
    if guard is None or not guard.startswith("guard:"):
        return path if guard is None else [*path, guard]
    node = follow(graph, guard, "added_during")
    frame = follow(graph, guard, "raised_at")
    return [*path, guard, *([node] if node else []), *([frame] if frame else [])]

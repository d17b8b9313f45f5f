"""Link guards to the FX nodes they were added during.

Live capture knows the node (``get_current_node``) or, in AOT, the Dynamo node it re-traces
(``from_node``).  Otherwise (trace files, or a Python branch with no node) the link goes
through the user line: the Dynamo graph prints ``# File: path:line`` above the nodes each
line produced, and free-symbol overlap picks the node among them.  Such links are marked
``fx_node_inferred``.
"""

from __future__ import annotations

from functools import cached_property, partial
from operator import attrgetter

from symdebug._torch.releases.sections import CauseFrames
from symdebug.model.code_types import FxNode
from symdebug.model.index import FactIndex
from symdebug.model.types import Facts, Guard
from symdebug.model.values import posix_path
from symdebug.processors.causes import frames_of, is_python_branch
from symdebug.processors.writes import Writes

_NAME = attrgetter("name")
#: Line number -> file -> the nodes that line produced, files in the graph's order.
_NodesByLine = dict[int, dict[str, list[FxNode]]]
#: The phases whose guards get a node inferred from their line (Inductor's never do).
_INFERRED_PHASES = ("dynamo", "aot", "unknown")


class _Graph:
    """One compile's nodes; their lines and targets are indexed on first use.

    Only a guard with a node needs the targets, and only one without a node outside
    Inductor needs the lines: a compile whose guards need neither is never indexed.
    """

    def __init__(self) -> None:
        self.nodes: list[FxNode] = []

    @cached_property
    def targets(self) -> dict[str, str]:
        """Each node's target, by its name."""
        return {node.name: node.target for node in self.nodes}

    @cached_property
    def by_line(self) -> _NodesByLine:
        """The nodes of each (file, line), found by the line number alone."""
        found: _NodesByLine = {}
        for node in self.nodes:
            files = found.get(node.lineno)
            if files is None:
                found[node.lineno] = {node.filename: [node]}
            elif node.filename in files:
                files[node.filename].append(node)
            else:
                files[node.filename] = [node]
        return found


def _same_file(a: str, b: str) -> bool:
    a, b = posix_path(a), posix_path(b)
    return a == b or a.endswith("/" + b.lstrip("./")) or b.endswith("/" + a.lstrip("./"))


def _nodes_at(guard: Guard, graph: _Graph) -> list[FxNode]:
    frame = guard.user_frame
    if frame is None:
        return []
    files = graph.by_line.get(frame.lineno)
    if files is None:
        return []
    return [
        node
        for filename, nodes in files.items()
        if _same_file(filename, frame.filename)
        for node in nodes
    ]


#: Words in framework frames that point at an FX node's target (meta/decomp function names).
_TARGET_HINTS = {
    "getitem": ("slice", "index", "getitem", "select"),
    "view": ("view", "reshape"),
    "reshape": ("view", "reshape"),
    "add": ("infer_size", "broadcast"),
    "mul": ("infer_size", "broadcast"),
    "sub": ("infer_size", "broadcast"),
}


def _score(frames: str, symbols: set[str], node: FxNode) -> tuple[bool, int, bool]:
    """Rank a candidate node: its op named by the frames, shared symbols, a tensor output.

    ``frames`` is the guard's framework frame names, lower-case; ``symbols`` its symbols.
    """
    hints = _TARGET_HINTS.get(node.target, (node.target,))
    named = bool(node.target) and any(map(frames.__contains__, hints))
    return named, len(symbols.intersection(node.symbols)), bool(node.sizes)


#: What linking sets on a guard: its node, the node's target, whether the node was
#: inferred, and the nodes of its line.
_Linked = tuple[str | None, str | None, bool, list[str]]
_LINKED = ("fx_node", "fx_node_target", "fx_node_inferred", "line_nodes")


def _infer(guard: Guard, at_line: list[FxNode]) -> _Linked:
    # The guard's side of the score is the same for every candidate: read it once.
    frames = " ".join(map(_NAME, guard.framework_stack)).lower()
    symbols = set(guard.symbols)
    chosen = max(at_line, key=partial(_score, frames, symbols))
    return chosen.name, chosen.target, True, guard.line_nodes


def _named(guard: Guard, node: str, graph: _Graph) -> _Linked:
    """The guard's node, with its target when the guard does not have it."""
    target = guard.fx_node_target or graph.targets.get(node)
    return node, target, guard.fx_node_inferred, guard.line_nodes


def _with_line_nodes(guard: Guard, nodes: list[FxNode]) -> _Linked:
    return guard.fx_node, guard.fx_node_target, guard.fx_node_inferred, [n.name for n in nodes]


def _link(guard: Guard, graph: _Graph, frames: CauseFrames) -> _Linked | None:
    """What linking sets on one guard; None when it sets nothing."""
    if guard.fx_node is None and guard.aot_node is not None and guard.aot_node in graph.targets:
        return _named(guard, guard.aot_node, graph)  # AOT/Inductor nodes trace back to it
    if guard.fx_node is not None:
        return None if guard.fx_node_target else _named(guard, guard.fx_node, graph)
    if guard.phase in _INFERRED_PHASES:
        return _link_by_line(guard, graph, frames)
    if is_python_branch(guard, frames):  # never for Inductor's guards: no line index needed
        return _with_line_nodes(guard, _nodes_at(guard, graph))
    return None


def _link_by_line(guard: Guard, graph: _Graph, frames: CauseFrames) -> _Linked | None:
    """A guard without a node: the nodes of its line if Python branched, else one inferred."""
    at_line = _nodes_at(guard, graph)
    if not at_line and not guard.line_nodes:
        return None  # nothing to name or infer: the cause checks below would change nothing
    if is_python_branch(guard, frames):
        return _with_line_nodes(guard, at_line)  # no node: control flow
    return _infer(guard, at_line) if at_line else None


def link_fx_nodes(facts: Facts) -> Writes:
    """Set ``fx_node`` (exact or inferred) or ``line_nodes`` on every guard."""
    graphs: dict[str, _Graph] = {}
    for node in facts.fx_nodes:
        graph = graphs.get(node.compile_id)
        if graph is None:
            graph = graphs[node.compile_id] = _Graph()
        graph.nodes.append(node)
    no_graph, frames = _Graph(), frames_of(facts)
    linked = [
        (guard, found)
        for guard in facts.guards
        if (found := _link(guard, graphs.get(guard.compile_id, no_graph), frames)) is not None
    ]
    return Writes().rows(_LINKED, [guard for guard, _ in linked], [found for _, found in linked])


def link_kernels(facts: Facts) -> Writes:
    """Inductor guards: the kernel whose nodes include the node Inductor was generating."""
    index = FactIndex(facts)
    guards = [guard for guard in facts.guards if guard.inductor_node]
    return Writes().set("kernel", guards, [_kernel(guard, index) for guard in guards])


def _kernel(guard: Guard, index: FactIndex) -> str | None:
    origins = set((guard.inductor_node or "").split(","))
    return next(
        (
            k.name
            for k in index.kernels.get(guard.compile_id, [])
            if k.graph == (guard.aot_graph or k.graph) and origins & set(k.nodes)
        ),
        None,
    )

"""Link guards to the FX nodes they were added during.

Live capture knows the node (``get_current_node``) or, in AOT, the Dynamo node it re-traces
(``from_node``).  Otherwise (trace files, or a Python branch with no node) the link goes
through the user line: the Dynamo graph prints ``# File: path:line`` above the nodes each
line produced, and free-symbol overlap picks the node among them.  Such links are marked
``fx_node_inferred``.
"""

from __future__ import annotations

from collections import defaultdict

from symdebug.model.code_types import FxNode
from symdebug.model.index import FactIndex
from symdebug.model.types import Facts, Guard
from symdebug.model.values import posix_path
from symdebug.processors.causes import is_python_branch

#: Line number -> (file, the nodes that line produced), files in the graph's order.
_NodesByLine = dict[int, list[tuple[str, list[FxNode]]]]


def _same_file(a: str, b: str) -> bool:
    a, b = posix_path(a), posix_path(b)
    return a == b or a.endswith("/" + b.lstrip("./")) or b.endswith("/" + a.lstrip("./"))


def _nodes_at(guard: Guard, by_line: _NodesByLine) -> list[FxNode]:
    frame = guard.user_frame
    if frame is None:
        return []
    return [
        node
        for filename, nodes in by_line.get(frame.lineno, ())
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


def _score(guard: Guard, node: FxNode) -> tuple[bool, int, bool]:
    """Rank a candidate node: its op named by the frames, shared symbols, a tensor output."""
    frames = " ".join(f.name for f in guard.framework_stack).lower()
    hints = _TARGET_HINTS.get(node.target, (node.target,))
    named = bool(node.target) and any(hint in frames for hint in hints)
    return named, len(set(guard.symbols) & set(node.symbols)), bool(node.sizes)


def _infer(guard: Guard, at_line: list[FxNode]) -> None:
    chosen = max(at_line, key=lambda node: _score(guard, node))
    guard.fx_node, guard.fx_node_target, guard.fx_node_inferred = chosen.name, chosen.target, True


def _link(guard: Guard, by_line: _NodesByLine, targets: dict[str, str]) -> None:
    if guard.fx_node is None and guard.aot_node in targets:
        guard.fx_node = guard.aot_node  # AOT/Inductor nodes trace back to it via from_node
    at_line = _nodes_at(guard, by_line)
    if guard.fx_node is not None:
        guard.fx_node_target = guard.fx_node_target or targets.get(guard.fx_node)
    elif is_python_branch(guard):
        guard.line_nodes = [node.name for node in at_line]  # no node: control flow
    elif at_line and guard.phase in ("dynamo", "aot", "unknown"):
        _infer(guard, at_line)


def link_fx_nodes(facts: Facts) -> None:
    """Set ``fx_node`` (exact or inferred) or ``line_nodes`` on every guard."""
    per_line: dict[str, dict[tuple[str, int], list[FxNode]]] = defaultdict(dict)
    targets: dict[str, dict[str, str]] = defaultdict(dict)
    for node in facts.fx_nodes:
        per_line[node.compile_id].setdefault((node.filename, node.lineno), []).append(node)
        targets[node.compile_id][node.name] = node.target
    per_compile = {cid: _by_line_number(lines) for cid, lines in per_line.items()}
    for guard in facts.guards:
        _link(guard, per_compile.get(guard.compile_id, {}), targets[guard.compile_id])


def _by_line_number(lines: dict[tuple[str, int], list[FxNode]]) -> _NodesByLine:
    """The nodes of each (file, line), found by the line number alone."""
    found: _NodesByLine = {}
    for (filename, lineno), nodes in lines.items():
        found.setdefault(lineno, []).append((filename, nodes))
    return found


def link_kernels(facts: Facts) -> None:
    """Inductor guards: the kernel whose nodes include the node Inductor was generating."""
    index = FactIndex(facts)
    for guard in facts.guards:
        if not guard.inductor_node:
            continue
        origins = set(guard.inductor_node.split(","))
        guard.kernel = next(
            (
                k.name
                for k in index.kernels.get(guard.compile_id, [])
                if k.graph == (guard.aot_graph or k.graph) and origins & set(k.nodes)
            ),
            None,
        )

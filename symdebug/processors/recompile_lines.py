"""The user's line of each recompile (``Recompile.user_frame``).

In order: the failed guard's own user line, the specialization's, the line torch's reason
names (``# if self.training:  # model.py:40 in forward``: checks on values, floats and
``self.training`` have no guard with a stack), for a list's length, the line of the
compiled function that iterates over or indexes the list; for a dtype, a layout or grad
mode (torch names no line), the call that passed it; for duck sizing, the call that passed
equal sizes to the compile that shared their symbol.  A mark's recompile points at
the line that marked (:mod:`symdebug.processors.mark_lines`, a later step).
"""

from __future__ import annotations

import re

from symdebug.fixes.fix_evidence import lowering
from symdebug.model.index import FactIndex
from symdebug.model.types import Compile, Frame, Guard, Recompile
from symdebug.model.values import posix_path
from symdebug.processors.list_uses import list_use
from symdebug.torchtext.own_code import user_line
from symdebug.torchtext.reasons import Reason

#: Causes decided by what the call passed (a dtype, a layout) or the state it ran under.
CALL_SITE_CAUSES = frozenset(
    {"dtype", "strides", "requires_grad", "device", "dispatch_keys", "global_state"}
)
#: The line text torch prints before the location: ``<check>  # <line>  # <file>:<n> in <fn>``.
_LINE_TEXT = re.compile(r"#\s(?P<text>.*?)\s+#\s[^#]+?:\d+ in [\w<>]+")


def recompile_line(recompile: Recompile, reason: Reason, index: FactIndex) -> Frame | None:
    """The user's line behind a recompile's failed check, or None when nothing names one."""
    compile_ = index.compile.get(recompile.compile_id)
    caller = compile_.caller if compile_ is not None else None
    guard, spec = recompile.guard, recompile.specialization
    if guard is not None and guard.user_frame is not None:
        return user_line(guard.user_frame, guard.user_stack, caller)[0]
    if spec is not None and spec.user_frame is not None:
        stack = spec.guards[0].user_stack if spec.guards else []
        # A specialization made before the guard (an index into ``nn.ModuleList``) keeps no
        # stack of its own: torch's reason prints it under the check, from 2.14.
        stack = stack or reason.user_stack
        return user_line(spec.user_frame, stack, caller)[0]  # a library's line: the user's
    if guard is not None and guard.phase == "inductor":
        return lowered_line(guard, index)
    if recompile.cause == "inductor" and reason.framework_loc:  # no guard: the reason's lowering
        function = reason.framework_loc.rpartition(" in ")[2]
        return node_line(function.lstrip("_"), recompile.failed_entry, index)
    return reason_frame(reason, compile_, index) or _unnamed_line(recompile, reason, index)


def _unnamed_line(recompile: Recompile, reason: Reason, index: FactIndex) -> Frame | None:
    """Where torch names no line: a list's use, the call that passed what changed."""
    compile_ = index.compile.get(recompile.compile_id)
    if compile_ is None:
        return None
    if recompile.cause == "length" and reason.source:
        return list_use(compile_, reason.source)
    if recompile.cause in CALL_SITE_CAUSES:
        return compile_.caller  # what the call passed, or the state it ran in
    first = index.compile.get(recompile.failed_entry or "")
    if recompile.cause == "duck_sizing" and first is not None:
        return first.caller  # the call that passed equal sizes
    return None


def lowered_line(guard: Guard, index: FactIndex) -> Frame | None:
    """An Inductor guard's line: that of the graph node its lowering ran for.

    Inductor names the ATen node (``_adaptive_avg_pool2d``); Dynamo's graph names the same
    operator without the underscore, with the user's line.
    """
    return node_line(lowering(guard), guard.compile_id, index)


def node_line(wanted: str, compile_id: str | None, index: FactIndex) -> Frame | None:
    """The user's line of the compile's graph node for an operator (``adaptive_avg_pool2d``)."""
    nodes = index.fx_nodes.get(compile_id or "", [])
    node = next((n for n in nodes if wanted in (n.name, n.target.rsplit(".", 1)[-1])), None)
    compile_ = index.compile.get(compile_id or "")
    if node is None or not node.filename:
        return None
    return Frame(node.filename, node.lineno, compile_.name if compile_ else "", node.code)


def reason_frame(reason: Reason, compile_: Compile | None, index: FactIndex) -> Frame | None:
    """The line torch's reason names, its file resolved (torch keeps only a path's tail)."""
    if reason.user_line is None or not reason.user_file:
        return None
    found = _LINE_TEXT.search(reason.text)
    text = found["text"].strip() if found is not None else ""
    filename = _full_path(reason.user_file, compile_, index)
    return Frame(filename, reason.user_line, reason.user_fn or "", text)


def _full_path(short: str, compile_: Compile | None, index: FactIndex) -> str:
    """The frame's file (or any captured file) that ends with torch's shortened path."""
    tail = posix_path(short).lstrip(".")
    known = [compile_.filename] if compile_ is not None else []
    if compile_ is not None and compile_.callee is not None:
        known.append(compile_.callee.filename)
    found = next((k for k in known if _ends(k, tail)), None)
    return found or next((k for k in _captured_files(index) if _ends(k, tail)), short)


def _captured_files(index: FactIndex) -> list[str]:
    """Every file a compile or a guard's user line names (read only when the frame's do not)."""
    files = {c.filename for c in index.facts.compiles}
    files.update(g.user_frame.filename for g in index.facts.guards if g.user_frame is not None)
    return sorted(files)


def _ends(full: str, tail: str) -> bool:
    return bool(full) and posix_path(full).endswith(tail)

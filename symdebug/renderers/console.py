"""Plain text: the per-frame session summary (``print(session)``).

Linear in the facts: every per-compile lookup goes through one :class:`FactIndex`.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby

from symdebug.fixes.fix_text import fix_lines
from symdebug.fixes.guard_text import guard_said
from symdebug.model.compiler_guards import COMPILER_GUARD_SAID
from symdebug.model.hunt_types import HuntRow
from symdebug.model.index import FactIndex
from symdebug.model.names import frame_title
from symdebug.model.types import Compile, Facts, Frame, GraphBreak, Guard, Symbol
from symdebug.model.words import counted, totals
from symdebug.torchtext.own_code import library_of, user_line
from symdebug.torchtext.reasons import first_reason_line

MAX_GUARDS_SHOWN = 8


#: What a status means when torch named no failure.
_UNSAID = {"incomplete": "did not finish (interrupted, or the log ends): no guards installed"}


def _compile_lines(index: FactIndex, compile_: Compile) -> list[str]:
    said = compile_.fail_type or _UNSAID.get(compile_.status, "")
    status = "" if compile_.status == "ok" else f" [{compile_.status}{': ' if said else ''}{said}]"
    lines = [f"  compile {compile_.compile_id}{status}"]
    recompile = index.recompile.get(compile_.compile_id)
    if recompile is not None:
        reason = first_reason_line(recompile.reasons)
        lines.append(f"    recompiled because ({recompile.cause}): {reason}")
        frame = recompile.user_frame
        if frame is not None:
            lines.append(f"    at {frame.filename}:{frame.lineno}  {frame.line}".rstrip())
        if recompile.fixes:  # the best one; why() has the others and what each costs
            lines += fix_lines(recompile.fixes[0], "    ", explained=False)
    return lines


def _sources(symbol: Symbol) -> str:
    """Dynamo's sources, each after the user's name (``x.shape[0] (L['x'].size()[0])``)."""
    said = symbol.user_names or [""] * len(symbol.sources)
    return ", ".join(f"{u} ({s})" if u else s for s, u in zip(symbol.sources, said, strict=False))


def _symbol_lines(index: FactIndex, compile_: Compile) -> list[str]:
    lines = []
    for symbol in index.symbols_of(compile_.compile_id):
        if symbol.expected is not None:  # said once per library, below
            continue
        cause = f" ({symbol.cause})" if symbol.cause and symbol.state != "dynamic" else ""
        lines.append(f"    {symbol.state:<17} {symbol.name:>6} = {_sources(symbol)}{cause}")
        lines += _origin_lines(symbol)
    lines += [f"    {line}" for line in compile_.expected_constants]
    return lines


def _origin_lines(symbol: Symbol) -> list[str]:
    """What made an unbacked symbol, and the user line (indented below the symbol)."""
    if not symbol.origin:
        return []
    frame = symbol.user_frame
    where = f" at {frame.filename}:{frame.lineno}" if frame is not None else ""
    code = [f"          {frame.line}"] if frame is not None and frame.line else []
    asserts = [f"          runtime asserts: {', '.join(symbol.runtime_asserts)}"]
    return [
        f"      {symbol.name}: {symbol.origin}{where}",
        *code,
        *(asserts if symbol.runtime_asserts else []),
    ]


def _at(frame: Frame) -> str:
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"


def _guard_line(guard: Guard, caller: Frame | None = None) -> str:
    where, library = user_line(guard.user_frame, guard.user_stack, caller)
    at = f"  @ {_at(where)}" if where else ""
    if library is not None:  # the user's own line, then the library line as context
        at += f" (in {library_of(library.filename)}: {_at(library)})"
    status = "" if guard.status == "installed" else f" [{guard.status}]"
    inferred = "?" if guard.fx_node_inferred else ""
    node = f"  (node {guard.fx_node}{inferred})" if guard.fx_node else ""
    return f"      {guard_said(guard)}{status}{at}{node}"


def _guard_lines(guards: list[Guard], caller: Frame | None = None) -> list[str]:
    lines = []
    ordered = sorted(guards, key=lambda g: g.cause)
    for cause, group in groupby(ordered, key=lambda g: g.cause):
        items = list(group)
        lines.append(f"    guards caused by {cause} ({len(items)}):")
        note = COMPILER_GUARD_SAID.get(cause)
        lines += [f"      ({note})"] if note else []
        lines += [_guard_line(guard, caller) for guard in items[:MAX_GUARDS_SHOWN]]
        if len(items) > MAX_GUARDS_SHOWN:
            lines.append(f"      ... and {len(items) - MAX_GUARDS_SHOWN} more")
    return lines


def _baked_lines(index: FactIndex, compile_id: str) -> list[str]:
    dims = [d for code in index.graph_code.get(compile_id, []) for d in code.specialized_dims]
    lines = [f"    baked into the generated code ({len(dims)}):"] if dims else []
    lines += [f"      {d.source} = {d.value} (was {d.symbol}): {d.explanation}" for d in dims]
    return lines


def break_lines(graph_break: GraphBreak, indent: str = "    ") -> list[str]:
    """A graph break: its line and reason, what it created, what it lost, its best fix."""
    if graph_break.failed:
        after = "the compile failed (the call raised)"
    elif graph_break.skipped:
        after = "frame skipped for good (it runs eagerly, uncompiled)"
    else:
        compiles = ", ".join(graph_break.resume_compiles) or "not compiled"
        after = f"resume frame {', '.join(graph_break.resume_frames) or '?'} ({compiles})"
    lines = [f"{indent}graph break at {graph_break.where}: {graph_break.reason} -> {after}"]
    if graph_break.expression:
        lines.append(f"{indent}    data-dependent: torch could not decide {graph_break.expression}")
    frame = graph_break.user_frame
    if frame is not None and frame.line:
        lines.append(f"{indent}    {frame.line}")
    lost = [
        f"{item.source} ({'marked' if item.marked else item.symbol}) -> "
        f"{', '.join(item.resume_sources)} = {item.value} in {item.resume_compile}"
        for item in graph_break.lost
    ]
    if lost:
        lines.append(f"{indent}  lost dynamism: " + "; ".join(lost))
    for fix in graph_break.fixes:  # torch's hint and the lost dynamism's: both matter
        lines += fix_lines(fix, indent + "  ", explained=False)
    return lines


def _frame_lines(
    index: FactIndex, compiles: list[Compile], breaks: dict[str, list[GraphBreak]]
) -> list[str]:
    first = compiles[0]
    lines = [f"frame {frame_title(first)}: {counted(len(compiles), 'compile')}"]
    if first.kind == "export":  # a torch.export call: no frame, no recompiles
        lines = [f"torch.export.{first.name} at {first.filename}:{first.lineno}"]
    for compile_ in compiles:
        cid = compile_.compile_id
        lines += _compile_lines(index, compile_)
        lines += [line for b in breaks.get(cid, []) for line in break_lines(b)]
        lines += _symbol_lines(index, compile_)
        lines += _guard_lines(index.guards_of(cid), compile_.caller)
        lines += _baked_lines(index, cid)
    return lines


def not_a_log(facts: Facts) -> str:
    """A hint where all that went wrong is lines without a record's prefix (a binary file).

    Parameters
    ----------
    facts
        What was read from the file.

    Returns
    -------
    str
        ``3 lines are no TORCH_TRACE record (...): is it a TORCH_TRACE log?``; empty where
        some line was a record, or nothing went wrong.
    """
    if facts.problems and set(facts.problems) <= {"bad_prefix", "orphan_payload"}:
        lines = sum(facts.problems.values())
        are = "is" if lines == 1 else "are"
        return (
            f"{counted(lines, 'line')} {are} no TORCH_TRACE record (no glog prefix): "
            "is it a TORCH_TRACE log?"
        )
    return ""


def render_summary(facts: Facts) -> str:
    """Per-frame summary: compiles and recompile reasons, symbols, guards by cause."""
    if not facts.compiles:  # what went wrong reading is still said
        head = f"symdebug session ({facts.source}): no compiles captured"
        hint = not_a_log(facts)
        return "\n".join([head, *([hint] if hint else []), *_tail(facts)])
    index = FactIndex(facts)
    causes = Counter(r.cause for r in facts.recompiles)
    counts = totals(len(facts.compiles), len(facts.recompiles), len(facts.guards))
    lines = [f"symdebug session ({facts.source}): {counts}"]
    if causes:
        lines.append(
            "recompiles by cause: " + ", ".join(f"{c} {n}" for c, n in causes.most_common())
        )
    breaks: dict[str, list[GraphBreak]] = {}
    for graph_break in facts.graph_breaks:
        breaks.setdefault(graph_break.compile_id, []).append(graph_break)
    if facts.graph_breaks:
        skipped = sum(b.skipped for b in facts.graph_breaks)
        lines.append(
            f"graph breaks: {len(facts.graph_breaks)} ({counted(skipped, 'frame')} skipped)"
        )
    frames: dict[tuple[int, int], list[Compile]] = {}  # one section per frame, interleaved or not
    for compile_ in facts.compiles:
        frames.setdefault((compile_.generation, compile_.frame_id), []).append(compile_)
    for group in frames.values():
        lines += _frame_lines(index, group, breaks)
    return "\n".join(lines + hunt_lines(facts.hunt) + _tail(facts))


def _hunt_evidence(row: HuntRow) -> str:
    """What an avoidable row saves and the change; a needed row's cause and line; else the note."""
    if row.verdict == "avoidable":
        saves = f"saves {counted(row.compiles, 'compile')} ({row.before} -> {row.after})"
        return f"{saves}: {row.change}" if row.change else saves
    if row.verdict != "needed":
        return row.note
    frame = row.user_frame
    where = f"at {_at(frame)}" if frame is not None else "at (unknown line)"
    line = f"  {frame.line}" if frame is not None and frame.line else ""
    return f"{row.cause or 'unknown'} {where}{line}"


def hunt_lines(rows: list[HuntRow]) -> list[str]:
    """The hunt's section: its verdicts counted, then one line per row (none without rows).

    Parameters
    ----------
    rows
        The hunt's rows (``Facts.hunt``), in the document's order.

    Returns
    -------
    list of str
        ``hunt: 1 avoidable (2 compiles saved), 1 needed, 0 untested``, then
        ``x.shape[1]  avoidable  saves 2 compiles (3 -> 1): <change>`` and the like.
    """
    if not rows:
        return []
    said = Counter(row.verdict for row in rows)
    saved = sum(row.compiles for row in rows if row.verdict == "avoidable")
    head = (
        f"hunt: {said['avoidable']} avoidable ({counted(saved, 'compile')} saved), "
        f"{said['needed']} needed, {said['untested']} untested"
    )
    names = [row.user_name or row.source for row in rows]
    width = max(map(len, names))
    return [head] + [
        f"  {name:<{width}}  {row.verdict:<9}  {_hunt_evidence(row)}".rstrip()
        for name, row in zip(names, rows, strict=True)
    ]


def _tail(facts: Facts) -> list[str]:
    """What was dropped to bound memory, and what could not be read."""
    lines = []
    if facts.dropped_compiles:
        lines.append(
            f"{counted(facts.dropped_compiles, 'oldest compile')} dropped to bound memory "
            "(symdebug.capture(max_compiles=...) keeps more)"
        )
    if facts.problems or facts.capture_errors:
        counts = dict(facts.problems, capture_hook_error=facts.capture_errors)
        lines.append("problems: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
    return lines

"""Plain-text views: the per-frame session summary and ``why`` answers."""

from __future__ import annotations

import re
from collections import Counter
from itertools import groupby
from typing import TYPE_CHECKING

from symdebug.model.types import Compile, Facts, Frame, Guard

if TYPE_CHECKING:
    from symdebug.queries.why import Explanation

MAX_GUARDS_SHOWN = 8


def _where(frame: Frame | None) -> str:
    if frame is None:
        return "(no user frame: the compiler raised it)"
    line = f"\n        {frame.line}" if frame.line else ""
    return f"{frame.filename}:{frame.lineno} in {frame.name}{line}"


def _first_line(reasons: list[str]) -> str:
    if not reasons or not reasons[0]:
        return "(no reason recorded)"
    return re.sub(r"\s{3,}", "  ", reasons[0].splitlines()[0])  # torch pads to align comments


def _compile_lines(facts: Facts, compile_: Compile) -> list[str]:
    status = "" if compile_.status == "ok" else f" [{compile_.status}: {compile_.fail_type or ''}]"
    lines = [f"  compile {compile_.compile_id}{status}"]
    recompile = next((r for r in facts.recompiles if r.compile_id == compile_.compile_id), None)
    if recompile is not None:
        lines.append(
            f"    recompiled because ({recompile.cause}): {_first_line(recompile.reasons)}"
        )
    return lines


def _symbol_lines(facts: Facts, compile_id: str) -> list[str]:
    lines = []
    for symbol in (s for s in facts.symbols if s.compile_id == compile_id):
        sources = ", ".join(symbol.sources)
        cause = f" ({symbol.cause})" if symbol.cause and symbol.state != "dynamic" else ""
        lines.append(f"    {symbol.state:<17} {symbol.name:>6} = {sources}{cause}")
    return lines


def _guard_lines(guards: list[Guard]) -> list[str]:
    lines = []
    ordered = sorted(guards, key=lambda g: g.cause)
    for cause, group in groupby(ordered, key=lambda g: g.cause):
        items = list(group)
        lines.append(f"    guards caused by {cause} ({len(items)}):")
        for guard in items[:MAX_GUARDS_SHOWN]:
            where = guard.user_frame
            at = f"  @ {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
            status = "" if guard.status == "installed" else f" [{guard.status}]"
            node = (
                f"  (node {guard.fx_node}{'?' if guard.fx_node_inferred else ''})"
                if guard.fx_node
                else ""
            )
            lines.append(f"      {guard.expr}{status}{at}{node}")
        if len(items) > MAX_GUARDS_SHOWN:
            lines.append(f"      ... and {len(items) - MAX_GUARDS_SHOWN} more")
    return lines


def _frame_lines(facts: Facts, compiles: list[Compile]) -> list[str]:
    first = compiles[0]
    lines = [f"frame {first.name} ({first.filename}:{first.lineno}): {len(compiles)} compile(s)"]
    for compile_ in compiles:
        lines += _compile_lines(facts, compile_)
        lines += _symbol_lines(facts, compile_.compile_id)
        lines += _guard_lines([g for g in facts.guards if g.compile_id == compile_.compile_id])
        lines += _baked_lines(facts, compile_.compile_id)
    return lines


def _baked_lines(facts: Facts, compile_id: str) -> list[str]:
    dims = [d for c in facts.graph_code if c.compile_id == compile_id for d in c.specialized_dims]
    lines = [f"    baked into the generated code ({len(dims)}):"] if dims else []
    lines += [f"      {d.source} = {d.value} (was {d.symbol}): {d.explanation}" for d in dims]
    return lines


def render_summary(facts: Facts) -> str:
    """Per-frame summary: compiles and recompile reasons, symbols, guards by cause."""
    if not facts.compiles:
        return f"symdebug session ({facts.source}): no compiles captured"
    causes = Counter(r.cause for r in facts.recompiles)
    lines = [
        f"symdebug session ({facts.source}): {len(facts.compiles)} compiles, "
        f"{len(facts.recompiles)} recompiles, {len(facts.guards)} guards",
    ]
    if causes:
        lines.append(
            "recompiles by cause: " + ", ".join(f"{c} {n}" for c, n in causes.most_common())
        )
    for _frame_id, group in groupby(facts.compiles, key=lambda c: c.frame_id):
        lines += _frame_lines(facts, list(group))
    if facts.problems or facts.capture_errors:
        counts = dict(facts.problems, capture_hook_error=facts.capture_errors)
        lines.append("problems: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
    return "\n".join(lines)


def render_explanation(explanation: Explanation) -> str:
    """A short answer: state, value, cause, guards, user line, framework line, node, fix."""
    e = explanation
    value = f" = {e.value}" if e.value is not None else ""
    lines = [f"{e.source} is {e.state}{value} in compile {e.compile_id}"]
    if e.cause and e.state != "dynamic":
        lines.append(f"  cause: {e.cause}")
    lines += [f"  guard: {g.expr}  [{g.status}, {g.phase}]" for g in e.guards[:MAX_GUARDS_SHOWN]]
    label = "first used at" if e.state == "dynamic" else "user line"
    lines.append(f"  {label}: {_where(e.user_frame)}")
    if e.framework_frame is not None:
        fw = e.framework_frame
        lines.append(f"  framework line: {fw.filename}:{fw.lineno} in {fw.name}")
    if e.fx_node:
        lines.append(f"  FX node: {e.fx_node}")
    for r in e.recompiles:
        lines.append(
            f"  recompile {r.compile_id} (entry {r.failed_entry} failed): {_first_line(r.reasons)}"
        )
        lines += [f"      -> {step}" for step in e.chains.get(r.compile_id, [])]
    lines += [f"  fix: {fix}" for fix in e.fixes]
    return "\n".join(lines)

"""Programs run once under both ``symdebug.capture()`` and ``TORCH_TRACE``, and the answers
each session gives about them (``test_live_vs_trace.py``).

``python tests/live_trace_programs.py OUT.json`` (with ``TORCH_TRACE`` set) runs every
program's workload under capture and writes the live session's answers; the test reads the
log the same run wrote and computes the same answers from it with :func:`answers`.

Every program breaks its graph once, recompiles, and has at least one symbol, guard and fix;
parameter names differ between programs so that ``why`` finds each program's own input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

import symdebug
from symdebug.model.types import Compile, Fix, Frame, GraphBreak, Guard, Recompile

#: A call's arguments as ``predict`` takes them: shapes and ints.
Call = tuple[tuple[Any, ...], dict[str, Any]]


def branch_break(rows: torch.Tensor) -> torch.Tensor:
    if rows.shape[0] > 4:  # a user branch: 3 rows recompile, then 1 row (0/1)
        rows = rows * 2
    torch._dynamo.graph_break()
    return rows + 1


def loop_break(v: torch.Tensor, n: int) -> torch.Tensor:
    for _ in range(n):  # an int the loop unrolls: specialized
        v = v + 1
    torch._dynamo.graph_break()
    return v * n


def pair_break(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    total = (a @ torch.ones(2, 2)).sum() + b.sum()  # a's 2 columns: specialized
    if a.shape[0] + b.shape[0] > 8:  # of one size, a and b share a symbol (duck sizing)
        total = total * 2
    torch._dynamo.graph_break()
    return total + a[0, 0]


def reduce_break(m: torch.Tensor) -> torch.Tensor:
    total = m.sum(0) * torch.arange(3.0)  # Inductor guards the reduction's size
    torch._dynamo.graph_break()  # the rest runs no operator: no second kernel to build
    return total


def duck_columns(c: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    # d.shape[1] shares c.shape[1]'s symbol, which the product specializes: read differently
    # from a log (test_live_vs_trace.KNOWN_DIFFERENCES).
    total = (c @ torch.ones(2, 2)).sum() + d.sum()  # c's 2 columns, and d's (duck-sized)
    if c.shape[0] > 4:  # a user branch: 5 rows recompile
        total = total + 1
    torch._dynamo.graph_break()
    return total + c.shape[0]


class Scale(torch.nn.Module):
    """A module whose int attribute changes between calls."""

    def __init__(self) -> None:
        super().__init__()
        self.k = 2

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        out = h * self.k  # ``self.k`` is a constant of the graph
        if h.shape[0] > 2:  # a user branch, once h is dynamic
            out = out + h.shape[0]
        torch._dynamo.graph_break()
        return out + 1


@dataclass(frozen=True)
class Program:
    """One compiled function: its frame's name, how it is run, and the calls predicted."""

    frame: str
    run: Callable[[], None]
    probes: list[Call] = field(default_factory=list)


def _branch() -> None:
    compiled = torch.compile(branch_break, backend="eager", dynamic=True)
    for rows in (8, 3, 1):
        compiled(torch.randn(rows, 3))


def _loop() -> None:
    compiled = torch.compile(loop_break, backend="eager")
    for n in (2, 3, 4):
        compiled(torch.randn(3), n)


def _pair() -> None:
    compiled = torch.compile(pair_break, backend="aot_eager", dynamic=True)
    compiled(torch.randn(4, 2), torch.randn(4, 3))
    compiled(torch.randn(4, 2), torch.randn(5, 3))


def _columns() -> None:
    compiled = torch.compile(duck_columns, backend="eager", dynamic=True)
    compiled(torch.randn(4, 2), torch.randn(3, 2))
    compiled(torch.randn(5, 2), torch.randn(3, 2))
    compiled(torch.randn(5, 2), torch.randn(3, 4))


def _scale() -> None:
    module = Scale()
    compiled = torch.compile(module, backend="eager")
    compiled(torch.randn(3))
    module.k = 3
    compiled(torch.randn(5))


def _reduce() -> None:
    compiled = torch.compile(reduce_break, backend="inductor", dynamic=True)
    compiled(torch.randn(100, 3))
    compiled(torch.randn(5000, 3))


PROGRAMS: dict[str, Program] = {
    "branch_break": Program("branch_break", _branch, [(((6, 3),), {}), (((2, 3),), {})]),
    "loop_break": Program("loop_break", _loop, [(((3,), 3), {}), (((5,), 7), {})]),
    "pair_break": Program(
        "pair_break",
        _pair,
        [(((6, 2), (6, 3)), {}), (((6, 2), (9, 3)), {}), (((1, 2), (1, 3)), {})],
    ),
    "duck_columns": Program(
        "duck_columns", _columns, [(((6, 2), (7, 2)), {}), (((6, 2), (7, 3)), {})]
    ),
    "forward": Program("forward", _scale, [(((7,),), {}), (((5,),), {}), (((1,),), {})]),
    "reduce_break": Program("reduce_break", _reduce, [(((300, 3),), {}), (((64, 2),), {})]),
}


def program_of(compile_: Compile) -> str | None:
    """The program a compile belongs to: its own frame, or a resume frame of it."""
    for name in PROGRAMS:
        if compile_.name == name or f"_resume_in_{name}_at_" in compile_.name:
            return name
    return None


def _where(frame: Frame | None) -> list[Any] | None:
    return None if frame is None else [frame.filename, frame.lineno, frame.name, frame.line]


def _codes(fixes: list[Fix]) -> list[str]:
    return [fix.code for fix in fixes]


def _guard(guard: Guard | None) -> list[Any] | None:
    if guard is None:
        return None
    return [guard.compile_id, guard.expr, guard.status, guard.cause, _where(guard.user_frame)]


def _recompile(recompile: Recompile) -> list[Any]:
    special = recompile.specialization
    return [
        recompile.compile_id,
        recompile.failed_entry,
        recompile.failed_entries,
        recompile.cause,
        recompile.reasons,
        recompile.sources,
        _guard(recompile.guard),
        None if special is None else [special.source, special.value, special.cause],
        _where(recompile.user_frame),
    ]


@dataclass
class _Facts:
    """One program's part of a session's facts."""

    session: symdebug.Session
    ids: set[str]

    def mine(self, items: list[Any]) -> list[Any]:
        return [item for item in items if item.compile_id in self.ids]


def _symbols(of: _Facts) -> list[Any]:
    return sorted(
        [s.compile_id, s.name, s.sources, s.state, s.cause, s.hint, _where(s.user_frame)]
        for s in of.mine(of.session.symbols)
    )


def _guards(of: _Facts) -> list[Any]:
    return sorted(_guard(g) for g in of.mine(of.session.guards))  # type: ignore[type-var]


def _break(b: GraphBreak) -> list[Any]:
    where = [_where(b.user_frame), _where(b.library_frame)]
    resumed = [b.skipped, b.failed, b.resume_frames, b.resume_compiles, b.expression]
    lost = [[lost.source, lost.value, lost.resume_compile] for lost in b.lost]
    return [b.compile_id, b.reason, *where, *resumed, lost]


def _breaks(of: _Facts) -> list[Any]:
    return [_break(b) for b in of.mine(of.session.graph_breaks)]


def _fixes(of: _Facts) -> list[Any]:
    """Every fix's code, by the fact it fixes."""
    s = of.session
    found = [["guard", g.compile_id, g.expr, _codes(g.fixes)] for g in of.mine(s.guards)]
    found += [["symbol", y.compile_id, y.name, _codes(y.fixes)] for y in of.mine(s.symbols)]
    found += [
        ["specialization", p.compile_id, p.source, _codes(p.fixes)]
        for p in of.mine(s.specializations)
    ]
    found += [["recompile", r.compile_id, _codes(r.fixes)] for r in of.mine(s.recompiles)]
    found += [["break", b.compile_id, _codes(b.fixes)] for b in of.mine(s.graph_breaks)]
    return sorted(item for item in found if item[-1])


def _why(session: symdebug.Session, asked: str) -> list[Any]:
    """``why(asked)``: its fields and its text, or the error it raised."""
    try:
        e = session.why(asked)
    except KeyError as error:
        return [asked, "KeyError", str(error)]
    guards = [[g.compile_id, g.expr, g.status, g.cause] for g in e.guards]
    return [
        asked, e.source, e.state, e.cause, e.value, e.compile_id, e.symbol, guards,
        [r.compile_id for r in e.recompiles], _codes(e.fixes), _where(e.user_frame),
        e.history, e.other_frames, e.guard_texts, str(e),
    ]  # fmt: skip


def _whys(of: _Facts) -> list[Any]:
    """``why`` of each input the program's compiles explain, and of each of their symbols."""
    sources = sorted({e.source for e in of.mine(of.session.explanations)})
    symbols = sorted({s.name for s in of.mine(of.session.symbols) if s.state == "dynamic"})
    return [_why(of.session, asked) for asked in [*sources, *symbols]]


def _predictions(session: symdebug.Session, program: Program) -> list[Any]:
    answers = []
    for args, kwargs in program.probes:
        said = session.predict(*args, frame=program.frame, **kwargs)
        answers.append([repr((args, kwargs)), said.outcome, said.entry, said.certain])
    return answers


def program_answers(session: symdebug.Session, name: str) -> dict[str, list[Any]]:
    """Every answer the session gives about one program, JSON-able."""
    ids = {c.compile_id for c in session.compiles if program_of(c) == name}
    of = _Facts(session, ids)
    return {
        "compiles": [[c.compile_id, c.name, c.status] for c in of.mine(session.compiles)],
        "specializations": sorted(
            [p.compile_id, p.source, p.value, p.cause] for p in of.mine(session.specializations)
        ),
        "symbols": _symbols(of),
        "recompiles": [_recompile(r) for r in of.mine(session.recompiles)],
        "guards": _guards(of),
        "graph_breaks": _breaks(of),
        "fixes": _fixes(of),
        "why": _whys(of),
        "predict": _predictions(session, PROGRAMS[name]),
    }


def answers(session: symdebug.Session) -> dict[str, dict[str, list[Any]]]:
    """Each program's answers, as they read after a JSON round trip."""
    found = {name: program_answers(session, name) for name in PROGRAMS}
    return json.loads(json.dumps(found))


def main(out: str) -> None:
    """Run every program under capture; write the live session's answers to ``out``."""
    torch.manual_seed(0)
    with symdebug.capture() as session:
        for program in PROGRAMS.values():
            program.run()
    Path(out).write_text(json.dumps(answers(session)), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])

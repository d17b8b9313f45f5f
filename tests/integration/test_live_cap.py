"""A long live session keeps its memory bounded (issue 13, point 5): beyond ``max_compiles``
the oldest compiles are dropped, counted, and said in the summary; what is kept is whole."""

from __future__ import annotations

import torch

import symdebug


def _functions(count: int) -> list[object]:
    made = []
    for k in range(count):  # one code object each: a compile each
        scope: dict[str, object] = {}
        exec(f"def f{k}(x):\n    return x * {k + 1}\n", scope)
        made.append(torch.compile(scope[f"f{k}"], backend="eager"))
    return made


def test_oldest_compiles_dropped_beyond_the_cap() -> None:
    with symdebug.capture(max_compiles=3) as session:
        for compiled in _functions(7):
            compiled(torch.ones(2))  # type: ignore[operator]
            assert len(session.compiles) <= 3  # a look after each cell, as a notebook does
    assert [c.name for c in session.compiles] == ["f4", "f5", "f6"]
    assert session.facts.dropped_compiles == 4
    assert "4 oldest compiles dropped to bound memory" in str(session)
    assert all(c.status == "ok" for c in session.compiles)


def test_no_cap_reached_drops_nothing() -> None:
    with symdebug.capture() as session:
        for compiled in _functions(3):
            compiled(torch.ones(2))  # type: ignore[operator]
    assert len(session.compiles) == 3 and session.facts.dropped_compiles == 0
    assert "dropped" not in str(session)

"""Rank divergence on hand-built facts: alike ranks, the odd one off the majority, a tie
(no majority: every rank listed), a specialization that differs."""

from __future__ import annotations

from symdebug.model.types import Compile, Facts, Recompile, Specialization
from symdebug.queries.ranks import divergence


def _rank(batch: int, recompiled: bool = False) -> Facts:
    first = Compile("0/0", 0, 0, name="step", filename="/w/train.py", lineno=8)
    facts = Facts(compiles=[first])
    facts.specializations.append(Specialization("L['x'].size()[1]", 4, "0/0"))
    facts.specializations.append(Specialization("L['x'].size()[0]", batch, "0/0"))
    if recompiled:
        facts.compiles.append(Compile("0/1", 0, 1, name="step", filename="/w/train.py", lineno=8))
        facts.recompiles.append(
            Recompile("0/1", "0/0", ["size mismatch"], cause="static_by_default")
        )
    return facts


def test_alike_ranks_do_not_diverge() -> None:
    result = divergence({0: _rank(8), 1: _rank(8)})
    assert result.differences == [] and result.odd_ones == []
    assert str(result) == "ranks 0, 1 compiled alike (no frame differs)"
    assert result.compiles == {"step (/w/train.py:8)": {0: 1, 1: 1}}


def test_the_rank_off_the_majority_is_odd() -> None:
    result = divergence({0: _rank(8), 1: _rank(8), 2: _rank(7), 3: _rank(8)})
    (difference,) = result.differences
    assert (difference.number, difference.aspect) == (0, "specializations")
    assert difference.odd_ranks == [2] and result.odd_ones == [2]
    assert "L['x'].size()[0] = 7" in difference.values[2]
    assert "ranks 0, 1, 3: L['x'].size()[0] = 8" in str(result)


def test_a_tie_names_the_rank_that_compiled_more() -> None:
    result = divergence({0: _rank(8), 1: _rank(8, recompiled=True)})
    (difference,) = result.differences
    assert (difference.number, difference.aspect) == (1, "recompile")
    assert difference.odd_ranks == [1]
    assert "rank 1: recompiled (static_by_default): size mismatch; ranks 0: no compile #1" in str(
        result
    )


def test_a_tie_of_values_lists_every_rank() -> None:
    result = divergence({0: _rank(8), 1: _rank(7)})
    (difference,) = result.differences
    assert difference.odd_ranks == [0, 1]

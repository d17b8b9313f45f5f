"""Predicting a range of sizes at once (issue 13, point 6): the same answers as one
``predict`` per size, and as torch itself when the calls are made."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import symdebug


def branch(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def pair(x: torch.Tensor, n: int) -> torch.Tensor:
    return x[:n] * n


@pytest.fixture
def session() -> symdebug.LiveSession:
    torch._dynamo.reset()
    compiled = torch.compile(branch, backend="eager")
    with symdebug.capture() as s:
        for rows in (8, 9, 10, 3):
            compiled(torch.randn(rows, 3))
    return s


def test_range_agrees_with_one_prediction_per_size(session: symdebug.LiveSession) -> None:
    ranged = session.predict_range(x=(np.arange(0, 40), 3))
    assert len(ranged) == 40
    for rows in range(40):
        single = session.predict(x=(rows, 3))
        assert ranged.entry(rows) == single.entry, rows
        assert ranged.outcomes()[rows] == single.outcome
        assert bool(ranged.certain[rows]) == single.certain
    assert ranged.counts() == {"recompile": 2, "0/2": 3, "0/1": 35}
    assert list(ranged.sizes) == ["L['x'].size()[0]"]


def halves(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] > 64:
        x = x * 2
    return x.view(-1, 6).sum(0)  # a check past the cheap ones: 4 * rows % 6 == 0


def test_a_large_range_narrowed_to_the_passing_rows_agrees_with_one_prediction_each() -> None:
    """Past a few thousand calls, checks run only on the rows still passing: same answers."""
    torch._dynamo.reset()
    compiled = torch.compile(halves, backend="eager", dynamic=True)
    with symdebug.capture() as s:
        for rows in (12, 201):
            compiled(torch.randn(rows, 4))
    rows = np.random.default_rng(0).integers(0, 300, 20_000)
    ranged = s.predict_range(x=(rows, 4))
    _, firsts = np.unique(rows, return_index=True)  # every size asked, once
    for index in firsts:
        single = s.predict(x=(int(rows[index]), 4))
        assert ranged.entry(index) == single.entry, int(rows[index])
        assert bool(ranged.certain[index]) == single.certain
    assert set(ranged.counts()) == {"0/0", "0/1", "recompile"}


def test_range_of_ints_and_lists(session: symdebug.LiveSession) -> None:
    by_list = session.predict_range(x=([5, 6, 1], 3))
    assert [by_list.entry(i) for i in range(3)] == ["0/1", "0/1", None]
    with pytest.raises(ValueError, match="array, a list or a range"):
        session.predict_range(x=(5, 3))


def test_range_matches_torch_when_the_calls_are_made() -> None:
    torch._dynamo.reset()
    compiled = torch.compile(pair, backend="eager")
    counts = range(1, 8)
    with symdebug.capture() as s:
        compiled(torch.randn(8, 2), 3)
        compiled(torch.randn(8, 2), 4)
        recompiles = 0
        for index, n in enumerate(counts):
            ranged = s.predict_range(x=(8, 2), n=counts)  # the cache as it stands now
            before = len(s.compiles)
            compiled(torch.randn(8, 2), n)
            recompiled = len(s.compiles) > before
            recompiles += recompiled
            assert recompiled == (ranged.outcomes()[index] == "recompile"), n
            assert ranged.certain[index], n
    assert recompiles >= 1  # n = 1 is its own compile (0/1 specialization)


class _Normed(torch.nn.Module):
    """A module whose guards compare a tuple: ``self.norm.normalized_shape == (8,)``."""

    def __init__(self) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.layer_norm(x, self.norm.normalized_shape) * x.shape[0]


def test_a_tuple_value_check_is_one_value_per_call() -> None:
    torch._dynamo.reset()
    compiled = torch.compile(_Normed(), backend="eager")
    with symdebug.capture() as s:
        for rows in (2, 3, 4):
            compiled(torch.randn(rows, 8))
    assert any("normalized_shape == (8,)" in c.code for c in s.compiles[-1].value_checks)
    ranged = s.predict_range(x=(np.arange(2, 12), 8))
    singles = [s.predict(x=(rows, 8)) for rows in range(2, 12)]
    assert [ranged.entry(i) for i in range(10)] == [p.entry for p in singles]
    assert all(p.entry is not None for p in singles)


def _powered(x: torch.Tensor) -> torch.Tensor:
    return x * 2 if 2 ** x.shape[0] > 1000 else x


def _listed(x: torch.Tensor, n: int, dims: list[int]) -> torch.Tensor:
    return x.reshape(n, -1).sum() + sum(dims)


def _product(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (x @ w).relu().sum(0)


def test_powers_past_int64_are_exact() -> None:
    """``2 ** s0`` leaves int64 at 63: the range computes it in Python's ints, as torch does."""
    torch._dynamo.reset()
    compiled = torch.compile(_powered, backend="eager", dynamic=True)
    with symdebug.capture() as s:
        compiled(torch.randn(12))
    sizes = np.array([12, 62, 63, 64, 100])
    ranged = s.predict_range((sizes,), frame="_powered")
    singles = [s.predict((int(n),), frame="_powered") for n in sizes]
    assert [ranged.entry(i) for i in range(len(sizes))] == [p.entry for p in singles]
    assert all(p.entry == "0/0" for p in singles)


def test_a_list_the_entries_check_as_a_list_is_one_value() -> None:
    """``dims=[3, 2]`` where the frame was compiled with a list: that list, not a range."""
    torch._dynamo.reset()
    compiled = torch.compile(_listed, backend="aot_eager")
    with symdebug.capture() as s:
        compiled(torch.randn(12), 3, [3, 2]), compiled(torch.randn(20), 4, [3, 2])
        ranged = s.predict_range((np.array([30, 40]),), np.array([5, 8]), [3, 2], frame="_listed")
        singles = [s.predict((r,), n, [3, 2], frame="_listed") for r, n in ((30, 5), (40, 8))]
    assert [ranged.entry(i) for i in range(2)] == [p.entry for p in singles] == ["0/1", "0/1"]
    assert ranged.certain.all()


def test_a_check_that_cannot_be_evaluated_leaves_the_range_unsure() -> None:
    """Dispatch keys of a tensor given by its shape, under ``no_grad``, with an entry compiled
    under ``inference_mode``: whether it is an inference tensor decides, so not known."""
    torch._dynamo.reset()
    compiled = torch.compile(_product, backend="aot_eager")
    w = torch.randn(8, 4)
    with symdebug.capture() as s:
        compiled(torch.randn(5, 8), w), compiled(torch.randn(7, 8), w)
        with torch.no_grad():
            compiled(torch.randn(7, 8), w)
        with torch.inference_mode():
            compiled(torch.randn(6, 8), w)
        with torch.no_grad():
            one = s.predict((20, 8), (8, 4), frame="_product")
            ranged = s.predict_range((np.array([20]), 8), (8, 4), frame="_product")
    assert not one.certain
    assert ranged.certain.tolist() == [one.certain]

"""``torch._dynamo.reset()`` inside one capture restarts torch's compile ids: the session
keeps the compiles apart (``0/0`` then ``0/0@1``) and still predicts and re-runs."""

from __future__ import annotations

import torch

import symdebug


def first(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def second(x):
    return x.view(-1, 2).sum(0)


def test_reset_inside_one_capture() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(first, backend="eager", dynamic=True)
        compiled(torch.randn(8))
        compiled(torch.randn(3))
        torch._dynamo.reset()
        again = torch.compile(second, backend="eager", dynamic=True)
        again(torch.randn(8))
    assert [(c.compile_id, c.name) for c in s.compiles] == [
        ("0/0", "first"),
        ("0/1", "first"),
        ("0/0@1", "second"),
    ]
    (recompile,) = s.recompiles
    assert (recompile.compile_id, recompile.failed_entry, recompile.cause) == (
        "0/1",
        "0/0",
        "user_branch",
    )
    assert {g.compile_id for g in s.guards} == {"0/0", "0/1", "0/0@1"}
    assert s.lookup_order("second") == ["0/0@1"]
    assert s.predict((6,), frame="second").entry == "0/0@1"
    result = s.rerun(again, (6,), frame="second")
    assert result.entry == "0/0@1" and result.prediction_held and not result.recompiled

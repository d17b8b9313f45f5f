"""What objects a call passes carry beyond sizes, predicted as torch checks it.

Each probe is predicted, then called, and torch's outcome read from its cache
(``tests/truth.py``): every certain answer must be torch's.  Guards symdebug cannot
evaluate (an object's identity, ``hasattr``, a dtype compared by value) leave the answer
unsure, never wrong.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import torch
from truth import Tally, held

import symdebug


class _Holder:
    def __init__(self, t: torch.Tensor, **fields: Any) -> None:
        self.t = t
        self.__dict__.update(fields)


def _activated(x: torch.Tensor, c: _Holder) -> torch.Tensor:
    return c.act(x + c.t)


def _typed(x: torch.Tensor, c: _Holder) -> torch.Tensor:
    return (x + c.t).to(c.dtype)


def _optional(x: torch.Tensor, c: _Holder) -> torch.Tensor:
    scale = getattr(c, "scale", None)
    return x + c.t if scale is None else x * scale


def _aliased(x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
    return x * 2 + a


@dataclasses.dataclass
class _State:
    t: torch.Tensor
    n: int = 1


def _counted(x: torch.Tensor, st: _State) -> torch.Tensor:
    return (x + st.t) * st.n


def _scaled(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    return x * s


def _extra(x: torch.Tensor, o: _Holder) -> torch.Tensor:
    return x + (o.extra if isinstance(o.extra, torch.Tensor) else len(o.extra))


def _never_wrong(
    tally: Tally,
    s: symdebug.LiveSession,
    compiled: Any,
    call: tuple[Any, ...],
    frame: str,
    *,
    certain: bool | None = None,
) -> None:
    prediction, truth = tally.probe(s, compiled, call, *call, frame=frame)
    assert held(prediction, truth) or not prediction.certain, f"{prediction}\n  torch: {truth}"
    if certain is not None:
        assert prediction.certain is certain, str(prediction)


def test_guards_not_evaluated_leave_the_answer_unsure(tally: Tally) -> None:
    """A dtype compared by value is not evaluated; ``NO_HASATTR`` is, on the object the call
    passes, and so is ``ID_MATCH`` (a function held) in a live session, by the id torch
    recorded (``test_predict_identity.py``)."""
    with symdebug.capture() as s:
        for fn, first, second, certain in [
            (_activated, {"act": torch.relu}, {"act": torch.sigmoid}, True),
            (_typed, {"dtype": torch.float64}, {"dtype": torch.float16}, False),
            (_optional, {}, {"scale": 2.0}, True),
        ]:
            compiled = torch.compile(fn, backend="eager")
            compiled(torch.randn(3), _Holder(torch.randn(3), **first))
            call = (torch.randn(3), _Holder(torch.randn(3), **second))
            _never_wrong(tally, s, compiled, call, fn.__name__, certain=certain)


def test_tensors_passed_twice_and_ints_passed_as_bools(tally: Tally) -> None:
    """``NO_TENSOR_ALIASING`` from the tensors a call passes; an int's type, as Dynamo's."""
    x = torch.randn(3)
    with symdebug.capture() as s:
        aliased = torch.compile(_aliased, backend="eager")
        aliased(torch.randn(3), torch.randn(3))
        _never_wrong(tally, s, aliased, (x, x), "_aliased", certain=True)
        counted = torch.compile(_counted, backend="eager")
        counted(torch.randn(3), _State(torch.randn(3)))
        _never_wrong(tally, s, counted, (x, _State(torch.randn(3), True)), "_counted", certain=True)


def test_a_0d_tensor_and_a_tuple_an_object_holds(tally: Tally) -> None:
    """A 0-d tensor's rank is checked (an int, a 1-d tensor fail it); a tuple held by an
    object is a tuple, not a tensor's shape."""
    with symdebug.capture() as s:
        scaled = torch.compile(_scaled, backend="eager")
        scaled(torch.randn(3), torch.tensor(2.0))
        for s_value in (2, torch.tensor([2.0]), torch.tensor(3.0)):
            _never_wrong(tally, s, scaled, (torch.randn(3), s_value), "_scaled", certain=True)
        extra = torch.compile(_extra, backend="eager")
        extra(torch.randn(3), _Holder(torch.randn(3), extra=torch.tensor(1.0)))
        held_tuple = _Holder(torch.randn(3), extra=())
        _never_wrong(tally, s, extra, (torch.randn(3), held_tuple), "_extra", certain=True)

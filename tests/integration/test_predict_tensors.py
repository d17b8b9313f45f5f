"""A call's tensors beyond their sizes, and torch's global state, predicted as torch checks them.

Each probe is predicted (in the context the call then runs in), then called; torch's outcome
is read from its cache and lookups.  Before ``tensor_checks`` (schema v9) every probe but the
first was "served" for sure, and torch compiled again: a ``float64`` or a transposed input,
one that requires grad or is marked dynamic, a frozen weight, a call under ``no_grad``,
``inference_mode`` or ``autocast``, a Hugging Face model called without a keyword its entry
read.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import torch
from truth import Tally

import symdebug


class _Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.lin(x)).sum(-1)


#: Room for every probe's compile: no probe reaches the recompile limit.
ROOMY: dict[str, Any] = {
    "frame": "forward",
    "dynamo_config": {"recompile_limit": 32, "suppress_errors": False},
}


def _marked(tensor: torch.Tensor) -> torch.Tensor:
    torch._dynamo.mark_dynamic(tensor, 0)
    return tensor


Probe = tuple[str, Callable[[], torch.Tensor], Callable[[], AbstractContextManager[Any]]]
PROBES: list[Probe] = [
    ("same tensor", lambda: torch.randn(4, 8), nullcontext),
    ("float64", lambda: torch.randn(4, 8, dtype=torch.float64), nullcontext),
    ("transposed", lambda: torch.randn(8, 4).t(), nullcontext),
    ("requires grad", lambda: torch.randn(4, 8, requires_grad=True), nullcontext),
    ("no_grad", lambda: torch.randn(4, 8), torch.no_grad),
    ("inference_mode", lambda: torch.randn(4, 8), torch.inference_mode),
    ("autocast", lambda: torch.randn(4, 8), lambda: torch.autocast("cpu", torch.bfloat16)),
    ("marked dynamic", lambda: _marked(torch.randn(4, 8)), nullcontext),
    ("same tensor again", lambda: torch.randn(4, 8), nullcontext),
]


def test_tensor_properties_and_global_state_are_checked_as_torch_does(tally: Tally) -> None:
    net = _Net()
    with torch._dynamo.config.patch(recompile_limit=32), symdebug.capture() as s:
        compiled = torch.compile(net, backend="eager")
        compiled(torch.randn(4, 8))
        outcomes = {}
        for label, make, context in PROBES:
            x = make()
            with context():
                prediction, truth = tally.probe(s, compiled, (x,), x, **ROOMY)
            assert prediction.certain, prediction
            outcomes[label] = truth[0]
        net.lin.weight.requires_grad_(False)  # a frozen weight: read from the live module
        prediction, truth = tally.probe(s, compiled, (torch.randn(4, 8),), (4, 8), **ROOMY)
        assert prediction.certain and prediction.recompiles, prediction
        assert list(prediction.failures[-1].values) == [
            "requires_grad:L['self']._modules['lin']._parameters['weight']"
        ]
    assert [outcomes[label] for label, _, _ in PROBES] == ["served", *["recompile"] * 7, "served"]


def test_a_log_takes_the_call_like_the_recorded_one_and_says_so() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(_Net(), backend="eager")
        compiled(torch.randn(4, 8))
    recorded = symdebug.Session(s.facts)  # as from a log: nothing reads torch's state now
    by_shape = recorded.predict((4, 8), frame="forward")
    assert by_shape.certain and by_shape.entry == "0/0"
    assert "L['x'] is a torch.float32 Tensor, as recorded" in by_shape.assumed
    assert any(text.startswith("torch's global state") for text in by_shape.assumed)
    other = recorded.predict(torch.randn(4, 8, dtype=torch.float64), frame="forward")
    assert other.certain and other.recompiles
    assert other.failures[0].values == {"dtype:L['x']": "torch.float64"}  # only what differs
    live = s.predict((4, 8), frame="forward")
    assert "the call runs in torch's state at this prediction (grad mode on)" in live.assumed


def test_a_keyword_the_call_leaves_out_misses_the_entry_that_read_it(tally: Tally) -> None:
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(n_layer=1, n_head=2, n_embd=16, vocab_size=50, n_positions=64)
    model = GPT2LMHeadModel(config).eval()
    ids, mask = torch.randint(0, 50, (2, 6)), torch.ones(2, 6, dtype=torch.long)
    with torch.no_grad(), symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager")
        compiled(input_ids=ids, attention_mask=mask)
        code = type(model).forward.__code__
        frame = next(c.name for c in s.compiles if c.filename == code.co_filename)
        other = {"input_ids": ids, "use_cache": False}  # two keywords, but no attention_mask
        prediction = s.predict(**other, frame=frame)
        assert prediction.certain and prediction.recompiles, prediction
        assert "absent: the call does not pass it" in str(prediction.failures[0])
        assert _called(s, compiled, frame, other) == "recompile"


def _called(s: symdebug.LiveSession, compiled: Any, frame: str, kwargs: dict[str, Any]) -> str:
    seen = len([c for c in s.compiles if c.name == frame])
    compiled(**kwargs)
    return "recompile" if len([c for c in s.compiles if c.name == frame]) > seen else "served"


def _total(xs: list[torch.Tensor]) -> torch.Tensor:
    return sum(x.sum() for x in xs)  # type: ignore[return-value]


def test_a_tuple_where_a_list_was_compiled_misses(tally: Tally) -> None:
    a, b = torch.randn(3), torch.randn(4)
    with symdebug.capture() as s:
        compiled = torch.compile(_total, backend="eager")
        compiled([a, b])
        listed, truth = tally.probe(s, compiled, ([a, b],), [a, b], frame="_total")
        assert listed.entry == "0/0" and truth == ("served", "0/0")
        tupled, truth = tally.probe(s, compiled, ((a, b),), (a, b), frame="_total")
        assert tupled.certain and tupled.recompiles and truth[0] == "recompile"


def _double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


def test_a_tensor_given_by_its_shape_meets_this_threads_dispatch_state(tally: Tally) -> None:
    """Under ``inference_mode`` a tensor made outside it loses its autograd key: an entry
    compiled outside misses, whether the call gives the tensor or only its shape."""
    with symdebug.capture() as s:
        compiled = torch.compile(_double, backend="aot_eager")
        with torch.no_grad():
            compiled(torch.randn(4))
        with torch.inference_mode():
            by_shape = s.predict((4,), frame="_double")
            by_tensor, truth = tally.probe(s, compiled, (torch.randn(4),), (4,), frame="_double")
        assert by_shape.certain and by_shape.recompiles and truth[0] == "recompile"
        assert by_tensor.certain and by_tensor.recompiles
        with torch.inference_mode():  # the entry compiled inside it now serves a shape in it
            assert s.predict((4,), frame="_double").entry == "0/1"
        with torch.no_grad():  # outside: 0/1 serves an inference tensor, 0/0 another one
            unsure = s.predict((4,), frame="_double")
        assert not unsure.certain and "dispatch keys" in str(unsure), unsure

"""The stack memo's spans: stacks that share a tail but walk to different depths.

The memo keys the innermost frames in spans whose depth the first walk under them set; a
later stack under the same span may need fewer or more frames.  Every answer must equal a
fresh reader's, and the damaged stacks must be read without it.
"""

from __future__ import annotations

import random

from symdebug.torchtext.stacks import StackReader

FILES = {
    "user": "model.py",
    "plumbing": "torch/fx/experimental/symbolic_shapes.py",
    "torch": "torch/utils/_pytree.py",  # torch, but no phase: the walk goes on
    "dynamo": "torch/_dynamo/symbolic_convert.py",
    "aot": "torch/_functorch/aot_autograd.py",
}


def _frame(line: int, where: str) -> dict[str, object]:
    return {"filename": FILES[where], "line": line, "name": f"f{line}", "loc": "x"}


def _stack(rng: random.Random) -> list[dict[str, object]]:
    """Outermost first: a user frame, a phase at some depth, torch frames, plumbing inside."""
    torch_frames = [_frame(rng.choice((100, 101, 102)), "torch") for _ in range(rng.randrange(30))]
    phase = _frame(rng.choice((7, 8)), rng.choice(("dynamo", "aot")))
    plumbing = [_frame(200 + i, "plumbing") for i in range(rng.choice((0, 2, 5)))]
    outer = [_frame(1, "user")] if rng.random() < 0.8 else []
    return [*outer, phase, *torch_frames, *plumbing]


def test_spans_answer_as_a_fresh_walk_does() -> None:
    rng = random.Random(4)
    stacks = [_stack(rng) for _ in range(400)]
    shared = StackReader({})
    for raw in stacks + stacks[::-1]:
        assert shared.evidence(raw) == StackReader({}).evidence(raw)


def test_a_longer_stack_under_a_stored_span_is_not_answered_by_it() -> None:
    """A stack that ends exactly where a longer one's span does, and the longer one."""
    deep = [_frame(7, "dynamo"), *(_frame(100 + i, "torch") for i in range(20))]
    longer = [_frame(1, "user"), *deep]
    other_phase = [_frame(8, "aot"), *deep]
    shared = StackReader({})
    for raw in (deep, longer, other_phase, deep[1:], longer, deep):
        assert shared.evidence(raw) == StackReader({}).evidence(raw)


def test_damaged_frames_beyond_the_head_are_read_without_the_memo() -> None:
    deep = [_frame(7, "dynamo"), *(_frame(100 + i, "torch") for i in range(20))]
    damaged = [{"filename": ["not", "hashable"], "line": 7, "name": "g"}, *deep[1:]]
    shared = StackReader({})
    assert shared.evidence(deep).phase == "dynamo"
    assert shared.evidence(damaged) == StackReader({}).evidence(damaged)

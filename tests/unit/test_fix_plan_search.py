"""The plan search on hand-made replays (no torch.compile): merging, judging, choosing."""

from __future__ import annotations

from typing import Any

import torch

from symdebug.live.fix_plan import (
    WHOLE_PROGRAM,
    FixPlan,
    candidates,
    judge,
    merged,
    outputs_match,
    search_plan,
)
from symdebug.live.replay import Replay
from symdebug.model.types import Facts, Fix, Recompile

DYNAMIC = "torch.compiler.config.dynamic_sources"
DUCK = "torch.fx.experimental._config.use_duck_shape"


def test_list_settings_are_joined_and_conflicts_refused() -> None:
    assert merged({DYNAMIC: "L['x']:0"}, {DYNAMIC: "L['y']:1, L['x']:0"}) == {
        DYNAMIC: "L['x']:0,L['y']:1"
    }
    assert merged({DUCK: False}, {DUCK: True}) is None
    assert merged({DUCK: False}, {DYNAMIC: "L['x']"}) == {DUCK: False, DYNAMIC: "L['x']"}


def test_outputs_compare_tensors_allclose_and_the_rest_exactly() -> None:
    assert outputs_match([torch.ones(2), 3], [torch.ones(2) + 1e-7, 3])
    assert not outputs_match([torch.ones(2)], [torch.ones(3)])
    assert not outputs_match([torch.ones(2)], [torch.zeros(2)])
    assert not outputs_match("printed 1", "printed 2")
    assert not outputs_match([1], (1,))


def replay(total: int, errors: list[str] | None = None, outputs: Any = 1) -> Replay:
    return Replay({}, compiles={"f (a.py:1)": total}, errors=errors or [], outputs=outputs)


def test_judge_names_what_is_wrong() -> None:
    baseline = replay(3)
    assert judge(baseline, replay(1), 3) == ""
    assert judge(baseline, replay(3), 3) == "3 compiles, not fewer than 3"
    assert judge(baseline, replay(1, ["RuntimeError: x"], None), 3) == "new error: RuntimeError: x"
    assert judge(baseline, replay(1, outputs=2), 3) == "outputs differ from the unchanged run"
    crashed = replay(3, ["RuntimeError: x"], None)  # nothing to compare with
    assert judge(crashed, replay(1, outputs=2), 3) == ""


def test_candidates_come_from_fix_settings_then_the_whole_program() -> None:
    facts = Facts(recompiles=[Recompile("0/1", "0/0", ["x.size()[0] == 4"])])
    facts.recompiles[0].fixes = [
        Fix("torch._dynamo.mark_dynamic(x, 0)", "mark", settings={DYNAMIC: "L['x']:0"}),
        Fix("x = x.select(1, -1)", "code"),
    ]
    assert candidates([facts, facts]) == [{DYNAMIC: "L['x']:0"}, WHOLE_PROGRAM]


def test_search_prefers_fewest_compiles_then_the_narrower_fix() -> None:
    outcomes = {"{}": 4, repr({DYNAMIC: "L['x']:0"}): 2, repr(WHOLE_PROGRAM): 2}
    outcomes[repr({DUCK: False})] = 3
    outcomes[repr({DYNAMIC: "L['x']:0", DUCK: False})] = 1
    outcomes[repr({DYNAMIC: "L['x']:0", **WHOLE_PROGRAM})] = 2
    seen: list[dict[str, Any]] = []

    def runner(settings: dict[str, Any]) -> Replay:
        seen.append(settings)
        result = replay(outcomes[repr(settings)])
        result.settings = settings
        return result

    proposals = [{DYNAMIC: "L['x']:0"}, {DUCK: False}, WHOLE_PROGRAM]
    plan = search_plan(runner, lambda _: proposals, progress=False)
    assert plan.settings == {DYNAMIC: "L['x']:0", DUCK: False}
    assert (plan.before, plan.after) == ({"f (a.py:1)": 4}, {"f (a.py:1)": 1})
    assert plan.verified and len(seen) == 6
    text = str(plan)
    assert "verified by replay" in text and "f (a.py:1)       4      1" in text


def test_no_helpful_candidate_gives_an_unverified_empty_plan() -> None:
    plan = search_plan(lambda s: replay(2), lambda _: [WHOLE_PROGRAM], progress=False)
    assert not plan.verified and plan.settings == {} and plan.after == plan.before
    assert isinstance(plan, FixPlan) and "no setting tried" in str(plan)

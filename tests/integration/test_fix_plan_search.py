"""The plan search on hand-made replays (no torch.compile): merging, judging, choosing."""

from __future__ import annotations

from typing import Any

import torch

from symdebug.live.candidates import WHOLE_PROGRAM, plan_candidates
from symdebug.live.changes import Change, merged_settings, setting_change
from symdebug.live.outputs import comparable_outputs, outputs_match
from symdebug.live.plan_search import search_plan
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import Replay
from symdebug.live.replay_search import Search, judge
from symdebug.live.trials import Candidate
from symdebug.model.types import Facts, Fix, Recompile

DYNAMIC = "torch.compiler.config.dynamic_sources"
DUCK = "torch.fx.experimental._config.use_duck_shape"


def test_list_settings_are_joined_and_conflicts_refused() -> None:
    assert merged_settings({DYNAMIC: "L['x']:0"}, {DYNAMIC: "L['y']:1, L['x']:0"}) == {
        DYNAMIC: "L['x']:0,L['y']:1"
    }
    assert merged_settings({DUCK: False}, {DUCK: True}) is None
    assert merged_settings({DUCK: False}, {DYNAMIC: "L['x']"}) == {DUCK: False, DYNAMIC: "L['x']"}


def test_outputs_compare_tensors_allclose_and_the_rest_exactly() -> None:
    assert outputs_match([torch.ones(2), 3], [torch.ones(2) + 1e-7, 3])
    assert not outputs_match([torch.ones(2)], [torch.ones(3)])
    assert not outputs_match([torch.ones(2)], [torch.zeros(2)])
    assert not outputs_match("printed 1", "printed 2")
    assert not outputs_match([1], (1,))


def replay(total: int, errors: list[str] | None = None, outputs: Any = 1) -> Replay:
    done = not errors
    return Replay((), {"f (a.py:1)": total}, errors or [], outputs, finished=done)


def test_judge_names_what_is_wrong() -> None:
    baseline = replay(3)
    assert judge(baseline, replay(1), 3) == ""
    assert judge(baseline, replay(3), 3) == "3 compiles, not fewer than 3"
    assert judge(baseline, replay(1, ["RuntimeError: x"], None), 3) == "new error: RuntimeError: x"
    assert judge(baseline, replay(1, outputs=2), 3) == "outputs differ from the unchanged run"
    crashed = replay(3, ["RuntimeError: x"], None)  # nothing to compare with: no proof
    assert judge(crashed, replay(1, outputs=2), 3).startswith("the unchanged run did not finish")


def test_candidates_are_marks_settings_then_the_whole_program() -> None:
    facts = Facts(recompiles=[Recompile("0/1", "0/0", ["x.size()[0] == 4"])])
    facts.recompiles[0].fixes = [
        Fix("torch._dynamo.mark_dynamic(x, 0)", "mark", settings={DYNAMIC: "L['x']:0"}),
        Fix(f"{DUCK} = False", "setting", settings={DUCK: False}),
        Fix("x = x.select(1, -1)", "code"),
    ]
    planned, not_tried = plan_candidates([facts, facts])
    mark, duck, whole = (candidate[0] for candidate in planned)
    assert len(planned) == 3 and mark.kind == "mark" and mark.settings == {}
    assert [(m.function, m.source, m.dim) for m in mark.marks] == [("mark_dynamic", "L['x']", 0)]
    assert duck.settings == {DUCK: False} and whole.settings == WHOLE_PROGRAM
    assert [n.fix.code for n in not_tried] == ["x = x.select(1, -1)"]  # no user line to rewrite


def test_outputs_that_cannot_be_compared_say_why() -> None:
    class Opaque:
        pass

    assert comparable_outputs([torch.ones(2), 3, "a"]) == ""
    assert "Opaque, which has no equality" in comparable_outputs([Opaque()])
    assert "generator" in comparable_outputs(x for x in range(2))


def test_search_prefers_fewest_compiles_then_the_narrower_fix() -> None:
    outcomes = {"{}": 4, repr({DYNAMIC: "L['x']:0"}): 2, repr(WHOLE_PROGRAM): 2}
    outcomes[repr({DUCK: False})] = 3
    outcomes[repr({DYNAMIC: "L['x']:0", DUCK: False})] = 1
    outcomes[repr({DYNAMIC: "L['x']:0", **WHOLE_PROGRAM})] = 2
    seen: list[Candidate] = []

    def runner(changes: Candidate) -> Replay:
        seen.append(changes)
        settings: dict[str, Any] = {}
        for change in changes:
            settings.update(change.settings)
        result = replay(outcomes[repr(settings)])
        result.changes = changes
        return result

    proposals = [
        (setting_change(s),) for s in ({DYNAMIC: "L['x']:0"}, {DUCK: False}, WHOLE_PROGRAM)
    ]
    plan = search_plan(runner, lambda _: proposals, progress=False)
    assert plan.settings == {DYNAMIC: "L['x']:0", DUCK: False}
    assert (plan.before, plan.after) == ({"f (a.py:1)": 4}, {"f (a.py:1)": 1})
    assert plan.verified and len(seen) == 6
    text = str(plan)
    assert "verified by replay" in text and "f (a.py:1)       4      1" in text


def test_no_helpful_candidate_gives_an_unverified_empty_plan() -> None:
    whole: list[Candidate] = [(setting_change(WHOLE_PROGRAM),)]
    plan = search_plan(lambda s: replay(2), lambda _: whole, progress=False)
    assert not plan.verified and plan.settings == {} and plan.after == plan.before
    assert isinstance(plan, FixPlan) and "no change tried" in str(plan)


def test_outputs_that_change_between_unchanged_runs_are_not_compared() -> None:
    runs = iter(range(100))

    def runner(changes: Candidate) -> Replay:
        return replay(1 if changes else 3, outputs=next(runs))  # a clock, say

    whole: list[Candidate] = [(setting_change(WHOLE_PROGRAM),)]
    plan = search_plan(runner, lambda _: whole, progress=False)
    assert plan.verified and not plan.outputs_compared
    assert "outputs change from run to run" in str(plan)


def test_a_change_is_keyed_by_what_it_does() -> None:
    one = Change("setting", "a", {DUCK: False})
    assert one.key == setting_change({DUCK: False}).key and one.label == "use_duck_shape=False"


def test_the_progress_bar_ends_full_whatever_total_it_guessed() -> None:
    """A search that stops early (5 of a 12-replay budget) still ends its bar at 100%."""
    search = Search(lambda _: replay(2), budget=12, progress=True, compare=False)
    for _ in range(4):
        search.run((), "again")
    search.close()
    assert search.progress.n == 5
    assert search.progress.total == search.progress.n  # 5 of 5, not 5 of 12

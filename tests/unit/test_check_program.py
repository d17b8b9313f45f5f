"""An entry's checks compiled into one function answer exactly as the careful walk does.

Every prediction here is made twice on the same values, through the entries' plans and
through the careful walk of every check (``planned=False``), and the two must be equal in
every field: entry, failures, what was assumed or not checked, conditions, notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import symdebug
from symdebug.model.types import Compile, Facts, InputDim, ShapeCheck, Signature
from symdebug.predict.predict import Prediction, Predictor

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = [*sorted((DATA / "traces").glob("*.log")), *sorted((DATA / "triton").glob("*.log.gz"))]
SIGNATURE = Signature(names=["x", "xs", "scale", "mode"], positional=4)


def both(predictor: Predictor, values: dict[str, Any]) -> Prediction:
    planned = predictor.predict(values)
    assert planned == predictor.predict(values, planned=False)
    return planned


def entry(number: int, *checks: str) -> Compile:
    compile_ = Compile(f"0/{number}", 0, number, name="f", signature=SIGNATURE)
    compile_.inputs = [
        InputDim("L['x'].size()[0]", "s0", True),
        InputDim("L['x'].size()[1]", "s1", True),
    ]
    compile_.shape_checks = [ShapeCheck(check) for check in checks]
    return compile_


def test_a_check_that_raises_is_left_to_the_careful_walk() -> None:
    # x.size(0) // (x.size(1) - 4) divides by zero at width 4: Dynamo's guard raises too.
    check = "L['x'].size()[0] // (L['x'].size()[1] - 4) > 1"
    predictor = Predictor(Facts(compiles=[entry(0, check)]), "f")
    for shape in [(8, 4), (8, 6), (2, 6), (9, 5)]:
        prediction = both(predictor, predictor.values([shape], {}))
        if shape[1] == 4:
            assert not prediction.certain
            assert prediction.unchecked == [f"{check} (cannot be evaluated)"]
        else:
            assert prediction.certain


def test_a_failing_check_after_ones_that_hold_names_its_values() -> None:
    checks = ["L['x'].size()[0] >= 2", "L['x'].size()[0] % 4 == 0", "L['x'].size()[0] <= 64"]
    # Newest first: 0/1 is looked up first, and fails on its second check.
    predictor = Predictor(Facts(compiles=[entry(0, checks[2]), entry(1, *checks[:2])]), "f")
    prediction = both(predictor, predictor.values([(6, 3)], {}))
    assert prediction.entry == "0/0"
    assert [f.check for f in prediction.failures] == [checks[1]]
    assert prediction.failures[0].values == {"L['x'].size()[0]": 6}


def test_unparsed_checks_and_values_the_call_does_not_give() -> None:
    checks = ["L['x'].size()[0] >>> 2", "L['scale'] > 0.5", "L['xs'][1].size()[0] == 3"]
    predictor = Predictor(Facts(compiles=[entry(0, *checks)]), "f")
    for args, kwargs in [
        ([(8, 2)], {}),
        ([(8, 2), [(1,), (3,)]], {}),
        ([(8, 2), [(1,)]], {}),  # the list lacks item 1: the entry fails on it
        ([(8, 2), [(1,), (4,)], 0.25], {}),
        ([(8, 2)], {"scale": 0.75}),
    ]:
        both(predictor, predictor.values(args, kwargs))


def test_an_item_the_call_s_container_lacks_fails_the_entry() -> None:
    compile_ = entry(0, "L['x'].size()[0] >= 2", "L['xs'][1].size()[0] == 3")
    compile_.inputs = []  # only the shape checks: each of them is planned
    predictor = Predictor(Facts(compiles=[compile_]), "f")
    lacking = both(predictor, {"L['x'].size()[0]": 8, "len:L['xs']": 1})
    assert lacking.recompiles and lacking.certain
    assert lacking.failures[0].values == {"L['xs'][1]": "absent: the call does not pass it"}
    holding = both(predictor, {"L['x'].size()[0]": 8, "len:L['xs']": 2})
    assert holding.entry == "0/0" and holding.unchecked == ["L['xs'][1].size()[0] == 3"]


def test_values_given_in_another_order_are_listed_in_that_order() -> None:
    """A float and a string whose guards are not recorded are listed in the call's order."""
    compile_ = entry(0, "L['x'].size()[0] >= 2")
    compile_.inputs = []  # only the shape check: the plan answers, not the careful walk
    predictor = Predictor(Facts(compiles=[compile_]), "f")
    first = both(predictor, predictor.values([(8, 2)], {"scale": 0.5, "mode": "a"}))
    second = both(predictor, predictor.values([(8, 2)], {"mode": "a", "scale": 0.5}))
    assert first.unchecked == second.unchecked[::-1] != second.unchecked


#: Logs whose entries no compiled plan answers: their one compile failed (torch installed no
#: entry), or each entry checks an item of a global dict, which no log gives.
NO_PLANS = {"chromium_events.log", "comp_failure.log", "gpt2_cuda_h200.log.gz"}


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_real_entries_at_many_sizes(log: Path) -> None:
    """Every frame of each log, at its recorded sizes, near them, and with some not given.

    Every compile's every variant is compared (no frame skipped, none compared twice), and
    where the entries can be planned, compiled plans (their one function each) answered.
    """
    facts = symdebug.load_trace(log).facts
    compared, plans = 0, 0
    for frame in sorted({c.name for c in facts.compiles}):
        predictor = Predictor(facts, frame)
        for compile_ in predictor.compiles:
            for values in _variants(compile_):
                both(predictor, values)
                compared += 1
        plans += sum(plan is not None for _, made in predictor.plans.values() for plan in made)
    assert compared == sum(len(_variants(c)) for c in facts.compiles) > 0
    assert (plans == 0) == (log.name in NO_PLANS), plans


def _variants(compile_: Compile) -> list[dict[str, Any]]:
    """The compile's own ints, each changed, and each left out once."""
    recorded = {str(dim.source): dim.value for dim in compile_.inputs if isinstance(dim.value, int)}
    variants = [recorded]
    for source, value in recorded.items():
        variants += [{**recorded, source: size} for size in (1, 2, value + 1, value * 2)]
        variants.append({k: v for k, v in recorded.items() if k != source})
    return variants


def int_entry(number: int, n: int, mode: str) -> Compile:
    """An entry compiled for one value of ``n`` and of ``mode`` (both made constants)."""
    compile_ = entry(number, f"2 <= L['x'].size()[0] <= {8 * (number + 1)}")
    compile_.inputs = [
        *compile_.inputs,
        InputDim("L['n']", n, False),
        InputDim("L['mode']", mode, False),
    ]
    return compile_


def test_entries_alike_but_for_their_constants_each_answer_their_own() -> None:
    """A frame recompiled for each value: one compiled plan, each entry its own constants."""
    compiles = [int_entry(k, k, "ab"[k % 2]) for k in range(6)]
    predictor = Predictor(Facts(compiles=compiles), "f")
    for n, mode, width in [(3, "b", 4), (3, "a", 4), (2, "a", 20), (2, "a", 30), (True, "b", 8)]:
        values = {"L['x'].size()[0]": width, "L['x'].size()[1]": 2, "L['n']": n, "L['mode']": mode}
        prediction = both(predictor, values)
        served = n is not True and mode == "ab"[n % 2] and width <= 8 * (n + 1)
        assert prediction.entry == (f"0/{n}" if served else None)
    plans = predictor.plans[next(iter(predictor.plans))][1]
    assert len({plan.first_failing.__code__ for plan in plans if plan is not None}) == 1

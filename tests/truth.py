"""Predict, then call, then read torch's answer: the harness of the prediction truth tests.

Torch's outcome is read from its cache and its lookups (``symdebug._torch.dynamo_cache``),
never from its logs; a certain prediction that disagrees with it is confident-wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from predict_cases import torch_error

import symdebug
from symdebug._torch.compiled import original_callable
from symdebug._torch.dynamo_cache import cache_lookups, cache_order
from symdebug.predict.frame_state import limit_hit
from symdebug.predict.predict import Prediction

Truth = tuple[str, str | None]  # outcome ("served", "recompile", "eager"), serving entry


def code_of(compiled: Any) -> Any:
    original = original_callable(compiled)
    return (type(original).forward if isinstance(original, torch.nn.Module) else original).__code__


def actual(session: symdebug.LiveSession, compiled: Any, frame: str, *args: Any) -> Truth:
    """Call ``compiled``; what torch did, from its cache, its lookups and new compiles."""
    seen = {c.compile_id for c in session.compiles}
    with cache_lookups() as lookups:
        try:
            compiled(*args)
        except Exception as error:  # a failed compile raises; symdebug's own error is re-raised
            torch_error(error)
    new = [c for c in session.compiles if c.compile_id not in seen and c.name == frame]
    if new and all(limit_hit(c) for c in new):
        return "eager", None  # the limit stopped the compile: torch ran the frame eagerly
    if new:
        return "recompile", next((c.compile_id for c in new if c.status == "ok"), None)
    if lookups and lookups[0]:
        return "served", (cache_order(code_of(compiled)) or [None])[0]
    return "eager", None


def assert_plans_agree(
    session: symdebug.Session,
    frame: str | int | None,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    """The entries' compiled plans answer exactly as the careful walk of every check."""
    named = dict(kwargs)
    predictor = symdebug.Session._predictor(session, frame, named.pop("dynamo_config", None))
    values = predictor.values(args, named)
    assert predictor.predict(values) == predictor.predict(values, planned=False)


def held(prediction: Prediction, truth: Truth) -> bool:
    outcome, entry = truth
    return prediction.outcome == outcome and (outcome != "served" or prediction.entry == entry)


@dataclass
class Tally:
    """Every prediction of a scenario with torch's outcome, for the checks and the counts."""

    rows: list[tuple[Prediction, Truth]] = field(default_factory=list)

    def probe(
        self,
        session: symdebug.LiveSession,
        compiled: Any,
        call: tuple[Any, ...],
        *shapes: Any,
        **named: Any,
    ) -> tuple[Prediction, Truth]:
        frame = named.pop("frame")
        # Torch's default settings, as from a log (a LiveSession's would add this process's);
        # a module's state is read from the module itself, as a live session does.
        prediction = symdebug.Session.predict(session, *shapes, frame=frame, **named)
        assert_plans_agree(session, frame, shapes, named)
        truth = actual(session, compiled, frame, *call)
        self.rows.append((prediction, truth))
        return prediction, truth

    def confident_wrong(self) -> list[str]:
        return [f"{p}\n  torch: {t}" for p, t in self.rows if p.certain and not held(p, t)]

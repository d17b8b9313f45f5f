"""Prediction from hand-built facts: a check that cannot be parsed is reported, not dropped."""

from __future__ import annotations

from symdebug.model.types import Compile, Facts, InputDim, ShapeCheck, Signature
from symdebug.predict.predict import Predictor


def _facts(check: str) -> Facts:
    compile_ = Compile("0/0", 0, 0, name="f", signature=Signature(names=["x"], positional=1))
    compile_.inputs = [InputDim("L['x'].size()[0]", "s0", True)]
    compile_.shape_checks = [ShapeCheck(check)]
    return Facts(compiles=[compile_])


def test_a_check_that_cannot_be_parsed_is_listed_as_unchecked() -> None:
    predictor = Predictor(_facts("L['x'].size()[0] >>> 2"), "f")
    prediction = predictor.predict(predictor.values([(8,)], {}))
    assert prediction.entry == "0/0"
    assert prediction.unchecked == ["L['x'].size()[0] >>> 2 (cannot be parsed)"]
    assert "not checked (1)" in str(prediction)


def test_a_check_that_parses_is_evaluated() -> None:
    predictor = Predictor(_facts("L['x'].size()[0] <= 16"), "f")
    assert predictor.predict(predictor.values([(8,)], {})).entry == "0/0"
    prediction = predictor.predict(predictor.values([(32,)], {}))
    assert prediction.entry is None and not prediction.unchecked
    assert prediction.failures[0].check == "L['x'].size()[0] <= 16"

"""Which class or object a call passes, and the arguments a call leaves out, predicted.

Torch checks an object's class by the id it recorded (``___check_type_id``) and a held
object by its own id (``___check_obj_id``): two classes both named ``Config`` are two
classes.  A live session compares the ids as torch does; a session read from a saved file
or a ``TORCH_TRACE`` log (another process: its ids mean nothing here) compares names, and is
unsure where two entries were compiled for two classes of one name.  A prediction for a call
short of an argument names it and is never confident.  Every answer is compared with what
torch then does (``tests/truth.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from truth import Tally, actual, held

import symdebug
from symdebug.predict.predict import Prediction

#: A class as a notebook cell defines it; run twice, it makes two classes of one name.
_CONFIG = "class Config:\n    def __init__(self, k):\n        self.k = k\n"
_MODULE = "test_predict_identity"


def _defined(source: str = _CONFIG, name: str = "Config") -> Any:
    """A class defined by running its source, as a notebook cell run again defines it."""
    namespace: dict[str, Any] = {"__name__": _MODULE}
    exec(source, namespace)
    return namespace[name]


def scaled(x: torch.Tensor, cfg: Any) -> torch.Tensor:
    return x * cfg.k


def applied(x: torch.Tensor, fn: Any) -> torch.Tensor:
    return fn(x)


def _compiled_for(s: symdebug.LiveSession, *classes: Any) -> Any:
    compiled = torch.compile(scaled, backend="eager")
    for cls in classes:
        compiled(torch.randn(3), cls(2))
    assert [c.compile_id for c in s.compiles if c.name == "scaled"] == [
        f"0/{i}" for i in range(len(classes))
    ]
    return compiled


def test_a_class_defined_again_is_another_class_live(tally: Tally) -> None:
    """The second ``Config`` fails the entry compiled for the first, as torch's check does."""
    torch._dynamo.reset()
    first, second = _defined(), _defined()
    assert first.__qualname__ == second.__qualname__ and first is not second
    with symdebug.capture() as s:
        compiled = _compiled_for(s, first)
        call = (torch.randn(3), second(2))
        miss, truth = tally.probe(s, compiled, call, *call, frame="scaled")
        assert truth[0] == "recompile" and miss.certain and miss.recompiles, str(miss)
        assert "another class of that name" in str(miss.failures[0])
        assert miss.failures[0].cause == "identity"
        for cls, entry in ((first, "0/0"), (second, "0/1")):  # each class has its entry now
            call = (torch.randn(3), cls(2))
            hit, truth = tally.probe(s, compiled, call, *call, frame="scaled")
            assert hit.certain and hit.entry == entry and truth == ("served", entry), str(hit)


def test_a_held_function_is_compared_by_its_id_live(tally: Tally) -> None:
    """``ID_MATCH`` on a function the call passes: another function recompiles."""
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(applied, backend="eager")
        compiled(torch.randn(3), torch.relu)
        for fn, outcome in ((torch.sigmoid, "recompile"), (torch.relu, "served")):
            call = (torch.randn(3), fn)
            prediction, truth = tally.probe(s, compiled, call, *call, frame="applied")
            assert prediction.certain and prediction.outcome == outcome == truth[0], str(prediction)


def _other() -> Any:
    return _defined("class Other:\n    k = 2\n", "Other")()


def _unsure_by_name(loaded: symdebug.Session, cls: Any) -> Prediction:
    """A prediction from facts alone for an object of ``cls``: unsure, and saying why."""
    prediction = loaded.predict(torch.randn(3), cls(2), frame="scaled")
    assert not prediction.certain, str(prediction)
    assert any(f"{_MODULE}.Config that 0/" in text for text in prediction.unchecked)
    return prediction


def test_a_saved_session_cannot_tell_two_classes_of_one_name_apart(tmp_path: Path) -> None:
    """Its ids are another process's: where two entries share a class name, it is unsure.

    Answering by the name (the newest entry) would be wrong for the first class.
    """
    torch._dynamo.reset()
    first, second = _defined(), _defined()
    with symdebug.capture() as s:
        compiled = _compiled_for(s, first, second)
        s.save(tmp_path / "run.symdebug.json")
        for loaded in (symdebug.Session(s.facts), symdebug.load(tmp_path / "run.symdebug.json")):
            for cls in (first, second):
                _unsure_by_name(loaded, cls)
            other = loaded.predict(torch.randn(3), _other(), frame="scaled")
            assert other.certain and other.recompiles, str(other)  # the name alone decides
        for cls, entry in ((first, "0/0"), (second, "0/1")):
            assert actual(s, compiled, "scaled", torch.randn(3), cls(2)) == ("served", entry)


_PROGRAM = f"""
import torch

def defined():
    namespace = {{"__name__": {_MODULE!r}}}
    exec({_CONFIG!r}, namespace)
    return namespace["Config"]

def scaled(x, cfg):
    return x * cfg.k

compiled = torch.compile(scaled, backend="eager")
for cls in (defined(), defined()):
    compiled(torch.randn(3), cls(2))
"""


def test_a_log_from_another_process_compares_class_names(tmp_path: Path) -> None:
    """A ``TORCH_TRACE`` log of the same program: unsure for either class, sure for another."""
    program = tmp_path / "program.py"
    program.write_text(_PROGRAM)
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"))
    subprocess.run([sys.executable, str(program)], check=True, env=env, timeout=600)
    loaded = symdebug.load_trace(tmp_path / "trace")
    assert isinstance(loaded, symdebug.Session)
    assert [c.compile_id for c in loaded.compiles if c.name == "scaled"] == ["0/0", "0/1"]
    for cls in (_defined(), _defined()):
        prediction = _unsure_by_name(loaded, cls)
        assert prediction.entry == "0/1"  # by name, the newest entry: unless it is the other
    other = loaded.predict(torch.randn(3), _other(), frame="scaled")
    assert other.certain and other.recompiles, str(other)


def pair(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + y


def unused(x: torch.Tensor, extra: Any) -> torch.Tensor:
    return x * 2


def defaulted(x: torch.Tensor, n: int = 2, tag: Any = object()) -> torch.Tensor:  # noqa: B008
    return x * n  # ``tag`` is read by no check: only the source says it has a default


class _Pair(torch.nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y


def _names_missing(prediction: Prediction, name: str) -> None:
    assert not prediction.certain, str(prediction)
    assert prediction.unchecked[0].startswith(f"{name} (not given"), prediction.unchecked
    assert f"the call gives no {name}, which" in str(prediction)
    assert any(f"the {name} the call leaves out" in c for c in prediction.conditions)


def test_a_call_short_of_an_argument_names_it_and_is_unsure(tally: Tally) -> None:
    """By keyword or by position, served or recompiled by what is given: never confident."""
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(pair, backend="eager")
        compiled(torch.randn(4, 8), torch.randn(4, 8))
        with pytest.raises(TypeError):  # the call as described cannot be made
            compiled(torch.randn(4, 8))
        for shapes, named in (((), {"x": (4, 8)}), (((4, 8),), {}), ((), {"x": (4, 8, 2)})):
            _names_missing(s.predict(*shapes, frame="pair", **named), "y")
        call = (torch.randn(4, 8),)
        prediction, _ = tally.probe(s, compiled, call, (4, 8), frame="pair")  # torch: TypeError
        _names_missing(prediction, "y")
        assert not s.predict_range(x=([4, 5, 6], 8), frame="pair").certain.any()
        given = s.predict(x=(4, 8), y=(4, 8), frame="pair")
        assert given.certain and given.entry == "0/0", str(given)


def test_an_argument_no_check_reads_is_still_missing(tally: Tally) -> None:
    """Nothing the entries check reads ``extra``: left out, the answer was confident."""
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(unused, backend="eager")
        compiled(torch.randn(3), 7)
        _names_missing(s.predict(x=(3,), frame="unused"), "extra")
        call = (torch.randn(3), 7)
        given, truth = tally.probe(s, compiled, call, (3,), 7, frame="unused")
        assert given.certain and truth == ("served", "0/0") and given.entry == "0/0"


def test_a_method_misses_its_arguments_not_self(tally: Tally) -> None:
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(_Pair(), backend="eager")
        compiled(torch.randn(4, 8), torch.randn(4, 8))
        prediction = s.predict(x=(4, 8), frame="forward")
        _names_missing(prediction, "y")
        assert [t for t in prediction.unchecked if "not given" in t] == [
            "y (not given: the frame takes x, y)"
        ]


def test_a_parameter_with_a_default_may_be_left_out(tally: Tally) -> None:
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(defaulted, backend="eager")
        compiled(torch.randn(3))
        prediction, truth = tally.probe(s, compiled, (torch.randn(3),), (3,), frame="defaulted")
        assert prediction.certain and truth == ("served", "0/0") and held(prediction, truth)

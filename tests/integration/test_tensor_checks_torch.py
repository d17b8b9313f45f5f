"""What an entry checks of a real tensor beyond its sizes, and of torch's global state.

Hand-built facts, as a v9 document holds them (as in ``unit/test_tensor_checks.py``), given
torch tensors: a call's tensor of another dtype, with grad, of another type, transposed or
marked dynamic misses the entry; one the document has no checks for leaves it unsure.
"""

from __future__ import annotations

import torch

from symdebug.model.types import Compile, Facts, InputDim, Signature, TensorCheck
from symdebug.predict.predict import Predictor

KEYS = "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)"
STATE = {"grad_mode": True, "default_dtype": 6}


def _compile(**fields: object) -> Compile:
    compile_ = Compile("0/0", 0, 0, name="f", signature=Signature(names=["x"], positional=1))
    compile_.inputs = [
        InputDim("L['x'].size()[0]", "s0", True),
        InputDim("L['x'].size()[1]", 8, False),
    ]
    check = TensorCheck("L['x']", "Tensor", KEYS, "torch.float32", None, False, [None, 1])
    compile_.tensor_checks = [check]
    compile_.global_state = dict(STATE)
    for name, value in fields.items():
        setattr(compile_, name, value)
    return compile_


def _outcome(p: Predictor, *args: object, **extra: object) -> str:
    prediction = p.predict({**p.values(args, {}), **extra})
    assert prediction.certain, prediction
    return prediction.entry or "recompile"


def test_a_tensor_unlike_the_compiled_one_misses() -> None:
    p = Predictor(Facts(compiles=[_compile()]), "f")
    same = {"dispatch:L['x']": KEYS, **{f"global:{k}": v for k, v in STATE.items()}}
    assert _outcome(p, torch.zeros(5, 8), **same) == "0/0"
    assert _outcome(p, torch.zeros(5, 8, dtype=torch.float64), **same) == "recompile"
    assert _outcome(p, torch.zeros(5, 8, requires_grad=True), **same) == "recompile"
    assert _outcome(p, torch.nn.Parameter(torch.zeros(5, 8)), **same) == "recompile"
    assert _outcome(p, torch.zeros(8, 5).t(), **same) == "recompile"  # stride()[1] is 5
    marked = torch.zeros(5, 8)
    torch._dynamo.mark_dynamic(marked, 0)
    compile_ = _compile()
    compile_.tensor_checks[0].absent_marks = ["_dynamo_dynamic_indices"]
    p_marked = Predictor(Facts(compiles=[compile_]), "f")
    assert _outcome(p_marked, torch.zeros(5, 8), **same) == "0/0"
    assert _outcome(p_marked, marked, **same) == "recompile"
    assert _outcome(p, torch.zeros(5, 8), **{**same, "dispatch:L['x']": "DispatchKeySet(CPU)"}) == (
        "recompile"
    )
    assert _outcome(p, torch.zeros(5, 8), **{**same, "global:grad_mode": False}) == "recompile"


def test_a_document_without_tensor_checks_is_unsure_of_a_tensor_it_is_given() -> None:
    p = Predictor(Facts(compiles=[_compile(tensor_checks=[], global_state={})]), "f")
    given = p.predict(p.values([torch.zeros(5, 8)], {}))
    assert given.entry == "0/0" and not given.certain
    assert given.unchecked == [
        "L['x']'s type, dtype, device and grad (not recorded) (cannot be evaluated)"
    ]
    by_shape = p.predict(p.values([(5, 8)], {}))
    assert by_shape.certain and by_shape.assumed == [
        "L['x']'s type, dtype, device and grad (not recorded)"
    ]


def test_entries_of_different_global_states_leave_a_log_prediction_unsure() -> None:
    trained = _compile()
    frozen = _compile(global_state={**STATE, "grad_mode": False})
    frozen.compile_id = frozen.compile_id.__class__("0/1")
    frozen.frame_compile_id = 1
    p = Predictor(Facts(compiles=[trained, frozen]), "f")
    from_log = p.predict(p.values([(5, 8)], {}))  # which grad mode the call runs in: unknown
    assert not from_log.certain and from_log.entry == "0/1"
    assert from_log.unchecked[0].startswith("the call runs with grad mode off")
    assert "different global states" in from_log.notes[-1]
    now = {"dispatch:L['x']": KEYS, **{f"global:{k}": v for k, v in STATE.items()}}
    assert _outcome(p, torch.zeros(5, 8), **now) == "0/0"  # read live: grad mode on

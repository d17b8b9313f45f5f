"""What an entry checks of a tensor beyond its sizes, and of torch's global state.

Hand-built facts, as a v9 document holds them: a tensor given by its shape is like the
recorded one (listed as assumed); a ``**kwargs`` key the call does not pass fails the checks
that read it.  The same facts given real tensors: ``integration/test_tensor_checks_torch.py``.
"""

from __future__ import annotations

import numpy as np

from symdebug.model.types import Compile, Facts, InputDim, ShapeCheck, Signature, TensorCheck
from symdebug.predict.predict import Predictor
from symdebug.predict.predict_range import predict_range
from symdebug.torchtext.guard_tree import parse_guard_tree

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


def test_the_guard_tree_line_gives_every_property_torch_compares() -> None:
    tree = parse_guard_tree(
        f"| +- TENSOR_MATCH: check_tensor(L['x'], Parameter, {KEYS}, torch.float16, device=0, "
        "requires_grad=True, size=[None, 8], stride=[8, 1])  # y = x + 1  # f.py:2 in f\n"
        "| +- DIMENSION_DYNAMIC_MARKING_GUARD: hasattr(L['x'], '_dynamo_dynamic_indices') "
        "== False  # y = x + 1  # f.py:2 in f\n"
    )
    (tensor,) = tree.tensors
    assert tensor.sizes == (None, 8) and tensor.strides == (8, 1)
    found = tensor.properties
    assert found is not None
    assert (found.type_name, found.dispatch_keys, found.dtype) == (
        "Parameter",
        KEYS,
        "torch.float16",
    )
    assert (found.device, found.requires_grad) == (0, True)
    assert tree.absent_marks == {"L['x']": ["_dynamo_dynamic_indices"]}


def test_what_the_call_does_not_tell_is_like_the_recorded_and_listed() -> None:
    p = Predictor(Facts(compiles=[_compile()]), "f")
    prediction = p.predict(p.values([(5, 8)], {}))
    assert prediction.certain and prediction.entry == "0/0"
    assert prediction.assumed == [
        "L['x'] is a torch.float32 Tensor, as recorded",
        "torch's global state (grad mode, autocast, default dtype...) as recorded",
    ]
    ranged = predict_range(p, [(np.arange(1, 100), 8)], {})
    assert ranged.counts() == {"0/0": 99} and ranged.certain.all()
    ranged = predict_range(p, [(np.arange(1, 100), 4)], {})
    assert ranged.counts() == {"recompile": 99}  # a contiguous (n, 4) has stride()[0] == 4


def test_a_keyword_the_call_does_not_pass_fails_the_checks_that_read_it() -> None:
    signature = Signature(names=["kwargs"], positional=0, varkw="kwargs")
    compile_ = Compile("0/0", 0, 0, name="f", signature=signature)
    compile_.shape_checks = [
        ShapeCheck("len(L['kwargs']) == 2"),
        ShapeCheck("L['kwargs']['mask'].size()[0] == L['kwargs']['ids'].size()[0]"),
    ]
    p = Predictor(Facts(compiles=[compile_]), "f")
    with_mask = p.predict(p.values([], {"ids": (2, 5), "mask": (2, 5)}))
    assert with_mask.certain and with_mask.entry == "0/0"
    without = p.predict(p.values([], {"ids": (2, 5), "use_cache": False}))
    assert without.certain and without.recompiles
    assert "L['kwargs']['mask'] = absent: the call does not pass it" in str(without.failures[0])


def test_the_class_of_an_object_the_call_passes_is_checked() -> None:
    tree = parse_guard_tree(
        "| +- TYPE_MATCH: ___check_type_id(L['xs'], 1407), type=<class 'list'>  # sum(xs)\n"
        "| +- TYPE_MATCH: ___check_type_id(L['self'], 9482), type=<class '__main__.Net'>  #\n"
        "| +- TYPE_MATCH: ___check_type_id(G['torch'], 1398), type=<class 'module'>  #\n"
    )
    assert [line.code for line in tree.value_lines] == ["type(L['xs']) is list"]
    compile_ = Compile("0/0", 0, 0, name="f", signature=Signature(names=["xs"], positional=1))
    compile_.shape_checks = [ShapeCheck("len(L['xs']) == 2")]
    compile_.value_checks = [ShapeCheck("type(L['xs']) is list")]
    p = Predictor(Facts(compiles=[compile_]), "f")
    assert p.predict(p.values([[1.0, 2.0]], {})).entry == "0/0"
    as_tuple = p.predict(p.values([(1.0, 2.0)], {}))
    assert as_tuple.certain and as_tuple.recompiles
    assert as_tuple.failures[0].values == {"class:L['xs']": "tuple"}


def test_a_key_check_reads_as_python_without_dynamo_names() -> None:
    from symdebug.predict.value_checks import readable

    assert readable("not ___dict_contains('forward', L['self'].__dict__)") == (
        "'forward' not in L['self'].__dict__"
    )
    assert readable("___dict_contains('mask', L['kwargs'])") == "'mask' in L['kwargs']"


def test_star_args_and_kwargs_are_a_tuple_and_a_dict_and_a_global_is_named_as_torch_does() -> None:
    signature = Signature(names=["x"], positional=1, varargs="rest", varkw="opts")
    compile_ = Compile("0/0", 0, 0, name="g", signature=signature)
    compile_.value_checks = [
        ShapeCheck("type(L['rest']) is tuple"),
        ShapeCheck("type(L['opts']) is dict"),
        ShapeCheck("G['SCALE'] == 2"),
    ]
    p = Predictor(Facts(compiles=[compile_]), "g")
    prediction = p.predict(p.values([(4,)], {}))
    assert prediction.assumed == [] and prediction.unchecked == ["G['SCALE'] == 2"]
    # ``**{"SCALE": 2}`` would be a keyword of the call: the hint spells the global as torch.
    assert prediction.notes[-1].endswith("""predict(..., **{"G['SCALE']": value})""")
    given = p.predict(p.values([(4,)], {"G['SCALE']": 2}))
    assert given.certain and given.entry == "0/0"

"""Predictions never guess: every certain prediction equals what torch then does.

A corpus of what the first corpus (``predict_cases.py``) lacks: module attributes given by
name, checks that cannot be evaluated, failed compiles (raised, and suppressed), compiles
with no graph (skipped, and cached), frames torch skipped for good, the recompile limit, and
Inductor's own guards.  Each probe is predicted, then called; torch's outcome is read from
its cache and its lookups (``symdebug._torch.dynamo_cache``), never from its logs.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
from typing import Any

import pytest
import torch
from predict_cases import torch_error
from truth import Tally, Truth, actual, held

import symdebug
from symdebug._torch.dynamo_cache import miss_settings
from symdebug.predict.predict import Prediction


class Chunked(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.chunk = 2
        self.lin = torch.nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x).chunk(self.chunk, dim=-1)[0]


def test_module_attribute_given_by_name(tally: Tally) -> None:
    model = Chunked()
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(4, 16))

        def probe(rows: int, chunk: int, *, named: bool = True) -> tuple[Prediction, Truth]:
            model.chunk = chunk
            given = {"self.chunk": chunk} if named else {}
            call = (torch.randn(rows, 16),)
            return tally.probe(s, compiled, call, frame="forward", x=(rows, 16), **given)

        hit, truth = probe(6, 2)
        assert hit.certain and hit.entry == "0/0" and truth == ("served", "0/0")
        # From the facts alone (a log), the module's attribute is a value to give:
        unnamed = symdebug.Session(s.facts).predict(x=(6, 16), frame="forward")
        assert not unnamed.certain and unnamed.entry == "0/0"
        assert unnamed.unchecked == ["L['self'].chunk == 2"]
        assert "served by 0/0 unless L['self'].chunk != 2" in str(unnamed)
        assert "self.chunk" in str(unnamed)  # says how to give it
        live, truth = probe(6, 2, named=False)  # ... a live session reads it from the module
        assert live.certain and live.entry == "0/0" and truth == ("served", "0/0")
        miss, truth = probe(6, 1)
        assert miss.certain and miss.recompiles and truth[0] == "recompile"
        assert miss.failures[0].check == "L['self'].chunk == 2"
        back, truth = probe(5, 2)
        assert back.certain and back.entry == "0/0" and truth == ("served", "0/0")
        changed, truth = probe(5, 1, named=False)  # chunk = 1 now: the entry made for it
        assert changed.certain and held(changed, truth)


def test_a_torch_spelled_source_and_a_parameter_size_by_name() -> None:
    with symdebug.capture() as s:
        torch.compile(Chunked(), backend="eager", dynamic=True)(torch.randn(4, 16))
    given = s.predict(x=(4, 16), **{"L['self'].chunk": 2, "self.lin.weight": (8, 16)})
    assert given.certain and given.recompiles
    assert given.failures[0].check.endswith("_parameters['weight'].size()[0] == 16")
    kept = s.predict(x=(4, 16), **{"self.chunk": 2})
    assert kept.certain and any("_parameters['weight']" in a for a in kept.assumed)


def rows_sum(x: torch.Tensor) -> torch.Tensor:
    return x.sum()


def test_inductor_guard_is_evaluated(tally: Tally) -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(rows_sum, backend="inductor", dynamic=True)
        compiled(torch.randn(10, 30))
        codes = [check.code for c in s.compiles for check in c.shape_checks]
        assert any("*" in code and "<= 4096" in code for code in codes), codes
        inside, truth = tally.probe(s, compiled, (torch.randn(20, 30),), (20, 30), frame="rows_sum")
        assert inside.certain and not inside.unchecked and truth == ("served", "0/0")
        over, truth = tally.probe(s, compiled, (torch.randn(100, 50),), (100, 50), frame="rows_sum")
        assert over.certain and over.recompiles and truth[0] == "recompile"
        assert over.failures[0].cause == "inductor"


def refusing_backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
    if example_inputs[0].shape[0] > 4:
        raise RuntimeError("this backend refuses sizes above 4")
    return gm.forward


def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


def _raised(compiled: Any, *args: Any) -> str | None:
    """The type of the error torch raised from the call, or None; symdebug's own re-raised."""
    try:
        compiled(*args)
    except Exception as raised:
        return torch_error(raised)["type"]
    return None


def _failed_compile(tally: Tally, suppress: bool) -> list[tuple[Prediction, Truth]]:
    with torch._dynamo.config.patch(suppress_errors=suppress), symdebug.capture() as s:
        compiled = torch.compile(double, backend=refusing_backend, dynamic=False)
        compiled(torch.randn(2))
        raised = _raised(compiled, torch.randn(8))  # suppressed: the frame runs eagerly
        assert raised == (None if suppress else "BackendCompilerFailed")
        assert [c.status for c in s.compiles] == ["ok", "failed"]
        config = {"suppress_errors": suppress}
        return [
            tally.probe(s, compiled, (torch.randn(n),), (n,), frame="double", dynamo_config=c)
            for n, c in ((2, config), (2, None), (8, config), (3, config))
        ]


def test_failed_compile_raised_serves_from_the_cache(tally: Tally) -> None:
    (hit, _), (unsure, _), (again, _), (other, _) = _failed_compile(tally, suppress=False)
    assert hit.certain and hit.entry == "0/0"
    assert not unsure.certain and unsure.entry == "0/0"  # suppress_errors was not given
    assert "suppress_errors" in str(unsure)
    assert again.certain and again.recompiles and other.certain and other.recompiles


def test_failed_compile_suppressed_skips_the_frame(tally: Tally) -> None:
    (hit, _), (unsure, truth), (again, _), (other, _) = _failed_compile(tally, suppress=True)
    assert truth == ("eager", None)
    for prediction in (hit, again, other):
        assert prediction.certain and prediction.runs_eager
        assert "BackendCompilerFailed" in str(prediction.eager)
    assert not unsure.certain and unsure.entry == "0/0"


def identity(x: torch.Tensor) -> torch.Tensor:
    return x


def flagged(x: torch.Tensor, flag: bool) -> torch.Tensor:
    if flag:
        return x * 2
    return x


def test_compiles_with_no_graph_skip_the_frame(tally: Tally) -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(identity, backend="eager")
        compiled(torch.randn(3))
        for n in (3, 5):
            prediction, truth = tally.probe(s, compiled, (torch.randn(n),), (n,), frame="identity")
            assert prediction.certain and prediction.runs_eager and truth == ("eager", None)
            assert "traced no ops" in str(prediction)
    torch._dynamo.reset()
    with symdebug.capture() as s:
        compiled = torch.compile(flagged, backend="eager")
        compiled(torch.randn(8), True)
        other, truth = tally.probe(
            s, compiled, (torch.randn(8), False), (8,), False, frame="flagged"
        )
        assert other.certain and other.recompiles  # torch's TRUE_MATCH, read from its guards
        assert other.failures[0].check == "L['flag'] == True"
        assert truth[0] == "recompile"  # ... and the new compile traced no ops
        for n, flag in ((8, True), (9, True), (8, False)):
            call = (torch.randn(n), flag)
            prediction, truth = tally.probe(s, compiled, call, (n,), flag, frame="flagged")
            assert prediction.certain and prediction.runs_eager and truth == ("eager", None)


SEEN: list[int] = []


def remember(x: torch.Tensor, n: int) -> torch.Tensor:
    SEEN.append(n)  # a side effect and no op: with allow_empty_graphs, an entry with no graph
    return x


def test_entry_with_no_graph_serves_from_the_cache(tally: Tally) -> None:
    # (An empty SEEN would be guarded by ``LENGTH_CHECK: not G['SEEN']``, which the facts do
    # not keep; a non-empty one by ``len(G['SEEN']) == 1``, which they do.)
    SEEN[:] = [1]
    with torch._dynamo.config.patch(allow_empty_graphs=True), symdebug.capture() as s:
        compiled = torch.compile(remember, backend="eager")
        compiled(torch.randn(3), 3)
        assert [(c.status, c.guard_count is not None) for c in s.compiles] == [("empty", True)]

        def probe(**given: Any) -> tuple[Prediction, Truth]:
            call = (torch.randn(3), 3)
            return tally.probe(s, compiled, call, (3,), 3, frame="remember", **given)

        SEEN[:] = [1]
        read, truth = probe()  # the global is read from the frame's module, as torch reads it
        assert read.certain and read.entry == "0/0" and truth == ("served", "0/0")
        SEEN[:] = [1, 2]
        grown, truth = probe()
        assert grown.certain and grown.recompiles and truth[0] == "recompile"
        SEEN[:] = [1]
        hit, truth = probe(SEEN=list(SEEN))
        assert hit.certain and hit.entry == "0/0" and truth == ("served", "0/0")
        miss, truth = probe(SEEN=list(SEEN))  # the call appended to it
        assert miss.certain and miss.recompiles and truth[0] == "recompile"


def graph_break_in_loop(x: torch.Tensor) -> torch.Tensor:
    for _ in range(2):
        x = x + 1
        torch._dynamo.graph_break()
    return x


def test_frame_skipped_for_good_runs_eagerly(tally: Tally) -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(graph_break_in_loop, backend="eager")
        compiled(torch.randn(3))
        for n in (3, 7):
            call = (torch.randn(n),)
            prediction, truth = tally.probe(s, compiled, call, (n,), frame="graph_break_in_loop")
            assert prediction.runs_eager and truth == ("eager", None)
            assert "Unsupported" in str(prediction.eager)
            assert prediction.conditions == [
                "the frame is compiled with fullgraph=True (the call raises)"
            ]


def test_recompile_limit_runs_eagerly_with_the_limit_named(tally: Tally) -> None:
    with torch._dynamo.config.patch(recompile_limit=2), symdebug.capture() as s:
        compiled = torch.compile(double, backend="eager", dynamic=False)
        for n in (2, 3):
            compiled(torch.randn(n))

        def probe(n: int, **named: Any) -> tuple[Prediction, Truth]:
            return tally.probe(s, compiled, (torch.randn(n),), (n,), frame="double", **named)

        assert s.predict((4,), frame="double").runs_eager  # a live session reads the limit
        first, truth = probe(4, dynamo_config=miss_settings())  # as a live re-run reads them
        assert first.certain and first.runs_eager and truth == ("eager", None)
        assert "recompile_limit (2)" in str(first)
        for n in (5, 6):  # now the log says so: no setting needed
            later, truth = probe(n)
            assert later.certain and later.runs_eager and truth == ("eager", None)
            assert "recompile_limit (2) reached" in str(later)
        hit, truth = probe(3)
        assert hit.certain and hit.entry == "0/1" and truth == ("served", "0/1")


def test_rerun_reads_eager_runs_and_judges_uncertain_predictions_honestly() -> None:
    with torch._dynamo.config.patch(recompile_limit=1), symdebug.capture() as s:
        compiled = torch.compile(double, backend="eager", dynamic=False)
        compiled(torch.randn(2))
        result = s.rerun(compiled, (5,))
    assert result.ran_eager and result.entry is None and not result.recompiled
    assert result.prediction.runs_eager and result.prediction_held
    assert not result.confidently_wrong and "ran eagerly" in str(result)
    model = Chunked()
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(4, 16))
        model.chunk = 1
        result = s.rerun(compiled, (6, 16))  # the module is read as it is: chunk 1 misses
    assert result.recompiled and result.prediction.certain and result.prediction_held
    with pytest.raises(ValueError, match=r"self\.chunk"):
        s.rerun(compiled, (6, 16), **{"self.chunk": 1})
    first, second = Chunked(), Chunked()
    with symdebug.capture() as s:
        one, two = (torch.compile(m, backend="eager", dynamic=True) for m in (first, second))
        one(torch.randn(4, 16))
        second.chunk = 4
        two(torch.randn(4, 16))
        second.chunk = 1  # two modules share the entries: which one a call passes is unknown
        result = s.rerun(two, (6, 16))
    assert not result.prediction.certain and not result.confidently_wrong
    assert "uncertain" in str(result)


@pytest.mark.parametrize("options", [{"backend": "aot_eager", "dynamic": True}])
def test_aot_guards_are_evaluated_like_dynamo_ones(options: dict[str, Any], tally: Tally) -> None:
    def scaled(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        return (torch.relu(x) * w).sum()

    with symdebug.capture() as s:
        compiled = torch.compile(scaled, **options)
        compiled(torch.randn(8, 3, requires_grad=True), torch.randn(3))
        for rows, cols in ((16, 3), (16, 5)):
            call = (torch.randn(rows, cols, requires_grad=True), torch.randn(cols))
            prediction, _ = tally.probe(s, compiled, call, (rows, cols), (cols,), frame="scaled")
            assert prediction.certain, str(prediction)


def _add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a + b


def _total(xs: list[torch.Tensor]) -> torch.Tensor:
    return sum(x.sum() for x in xs)


def test_arguments_passed_twice_are_a_fact_of_the_call(tally: Tally) -> None:
    """``a is b`` (compiled with one tensor passed twice) is not the program's state.

    Given as tensors, which objects the call passes is known and the answer sure either way;
    given as shapes it is not, and the answer says so, with how to give it.
    """
    x = torch.randn(3)
    with symdebug.capture() as s:
        add, total = torch.compile(_add, backend="eager"), torch.compile(_total, backend="eager")
        add(x, x)
        total([x, x])
        same, truth = tally.probe(s, add, (x, x), x, x, frame="_add")
        assert same.certain and same.entry == truth[1] and truth[0] == "served"
        by_shape, _ = tally.probe(s, total, ([x, x],), frame="_total", xs=[(3,), (3,)])
        assert not by_shape.certain and by_shape.entry is not None
        assert by_shape.conditions == ["L['xs'][0] is not L['xs'][1]"]
        assert any("give the tensors themselves" in note for note in by_shape.notes)
        apart, truth = tally.probe(s, add, (x, x.clone()), x, x.clone(), frame="_add")
        assert apart.certain and apart.recompiles and truth[0] == "recompile"
        assert apart.failures[0].check == "L['a'] is L['b']"
        assert "<Tensor (3,) at 0x" in str(apart)


def _options(
    x: torch.Tensor, flag: bool = False, mask: torch.Tensor | None = None, mode: str = "a"
) -> torch.Tensor:
    y = x + 1 if flag else x
    y = y if mask is None else y * mask
    return y - 1 if mode == "a" else y


def test_none_bools_and_strings_a_call_passes_or_leaves_to_its_defaults(tally: Tally) -> None:
    """torch's ``NONE_MATCH``, ``TRUE_MATCH`` and string ``EQUALS_MATCH`` are checks too.

    A parameter the call leaves out takes its default from the source, as Python does: a
    compile with ``flag=True`` does not serve ``f(x)``.
    """
    x, m = torch.randn(3), torch.randn(3)
    with symdebug.capture() as s:
        compiled = torch.compile(_options, backend="eager")
        compiled(x, True, mask=m)
        left_out, truth = tally.probe(s, compiled, (x,), (3,), frame="_options")
        assert left_out.certain and left_out.recompiles and truth[0] == "recompile"
        # Left out, ``mask`` is None where the entry has a 1-d tensor, and ``flag`` False.
        assert left_out.failures[0].check in ("L['mask'].dim() == 1", "L['flag'] == True")
        first = left_out.failures[0].entry
        calls = [  # (the call, the same call by shapes, what torch does)
            ((x, True, m), {"mask": (3,)}, "served"),
            ((x, True, None), {"mask": None}, "recompile"),
            ((x, True, m, "b"), {"mask": (3,), "mode": "b"}, "recompile"),
        ]
        for call, named, outcome in calls:
            prediction, truth = tally.probe(
                s, compiled, call, (3,), True, frame="_options", **named
            )
            assert prediction.certain and prediction.outcome == outcome == truth[0]
            assert outcome != "served" or prediction.entry == first


class _Dropped(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.drop = torch.nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.lin(x))


def test_a_live_prediction_reads_the_module_as_it_is_now() -> None:
    """``model.eval()`` after the compile: torch's guard on ``drop.training`` fails.

    From the facts alone that flag is taken as recorded (and listed so); a live session reads
    the module itself, so its answer follows ``eval()`` and ``train()`` as torch does.
    """
    model, x = _Dropped(), torch.randn(4, 8)
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager")
        compiled(x)
        model.eval()
        recorded = symdebug.Session(s.facts).predict(x=(4, 8), frame="forward")  # as a log
        assert recorded.entry == "0/0"
        assert any("drop'].training == True" in text for text in recorded.assumed)
        now = s.predict(x=(4, 8), frame="forward")
        assert now.certain and now.recompiles
        assert now.failures[0].check == "L['self']._modules['drop'].training == True"
        assert not any("the call passes" in text for text in now.assumed)  # it did not serve
        assert actual(s, compiled, "forward", x)[0] == "recompile"
        model.train()
        back = s.predict(x=(4, 8), frame="forward")
        assert back.certain and back.entry == "0/0"
        assert any(text.startswith("the call passes _Dropped at 0x") for text in back.assumed)
        assert actual(s, compiled, "forward", x) == ("served", "0/0")


class _Halves(torch.nn.Module):
    def __init__(self, chunk: int) -> None:
        super().__init__()
        self.chunk = chunk

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.chunk(self.chunk, dim=-1)[0]


def test_two_modules_of_one_class_are_not_read() -> None:
    """Both share their forward's entries: which one a call passes is not known."""
    first, second = _Halves(2), _Halves(4)
    with symdebug.capture() as s:
        torch.compile(first, backend="eager", dynamic=True)(torch.randn(4, 16))
        torch.compile(second, backend="eager", dynamic=True)(torch.randn(4, 16))
        prediction = s.predict(x=(4, 16), frame="forward")
        assert not prediction.certain and "L['self'].chunk" in prediction.unchecked[0]
        assert len(prediction.order) == 2  # each compiled its own entry
        given = s.predict(x=(4, 16), frame="forward", **{"self.chunk": 4})
        assert given.certain and given.entry is not None


_Pair = collections.namedtuple("_Pair", "a b")


@dataclasses.dataclass
class _Options:
    scale: int
    mask: torch.Tensor | None = None


def _pair(p: _Pair) -> torch.Tensor:
    return p.a.sum() + p.b[: p.a.shape[0]].sum()


def _scaled(x: torch.Tensor, options: _Options) -> torch.Tensor:
    y = x * options.scale
    return y if options.mask is None else y * options.mask


def test_a_namedtuple_and_a_dataclass_are_read_by_their_fields(tally: Tally) -> None:
    """Dynamo reads ``p.a`` as ``L['p'].a``: given as a namedtuple of shapes, it is checked."""
    with symdebug.capture() as s:
        pair = torch.compile(_pair, backend="eager", dynamic=True)
        pair(_Pair(torch.randn(3), torch.randn(5)))
        for a, b in ((4, 9), (7, 2)):
            call = (_Pair(torch.randn(a), torch.randn(b)),)
            prediction, truth = tally.probe(s, pair, call, _Pair((a,), (b,)), frame="_pair")
            assert prediction.certain and prediction.outcome == truth[0]
        scaled = torch.compile(_scaled, backend="eager")
        scaled(torch.randn(3), _Options(2))
        for scale, mask in ((2, None), (3, None), (2, (3,))):
            given = _Options(scale, None if mask is None else torch.randn(3))
            prediction, truth = tally.probe(
                s, scaled, (torch.randn(3), given), (3,), _Options(scale, mask), frame="_scaled"
            )
            assert prediction.certain and prediction.outcome == truth[0]


class _Layer:
    def __init__(self, rows: int, ready: bool = True) -> None:
        self.keys = torch.randn(2, rows, 4)
        self.ready = ready


class _Cache:
    """A key-value cache as transformers' ``DynamicCache`` holds one: layers of tensors."""

    def __init__(self, rows: int, layers: int = 2, *, ready: bool = True) -> None:
        self.layers = [_Layer(rows, ready) for _ in range(layers)]
        self.offloading = False


def _attend(x: torch.Tensor, cache: _Cache) -> torch.Tensor:
    total = x.sum()
    for layer in cache.layers:
        if layer.ready:
            total = total + layer.keys.sum(1).mean()
    return total if cache.offloading else total * 2


def test_what_the_entries_read_inside_an_object_the_call_passes_is_checked(
    tally: Tally,
) -> None:
    """A cache object's tensors, flags and layers, read from the object the call passes."""
    with symdebug.capture() as s:
        attend = torch.compile(_attend, backend="eager")
        attend(torch.randn(3), _Cache(5))
        attend(torch.randn(3), _Cache(6))  # the cache's length becomes dynamic
        for cache in (_Cache(9), _Cache(1), _Cache(9, 3), _Cache(9, ready=False), _Cache(7)):
            call = (torch.randn(3), cache)
            prediction, truth = tally.probe(s, attend, call, (3,), cache, frame="_attend")
            assert prediction.certain, str(prediction)
            assert held(prediction, truth), f"{prediction}\n  torch: {truth}"
        offloaded = _Cache(9)
        offloaded.offloading = True
        prediction, truth = tally.probe(
            s, attend, (torch.randn(3), offloaded), (3,), offloaded, frame="_attend"
        )
        assert prediction.certain and prediction.recompiles and truth[0] == "recompile"
        # The entry torch tries first fails on the flag itself, read from the object passed.
        assert prediction.failures[0].check == "L['cache'].offloading == False"


def test_entries_compiled_before_the_capture_make_an_answer_they_precede_unsure() -> None:
    """Torch's cache may hold entries this capture never saw: their checks are not known."""
    compiled = torch.compile(double, backend="eager", dynamic=False)
    compiled(torch.randn(2))  # before the capture: an entry symdebug knows nothing of
    with symdebug.capture() as s:
        compiled(torch.randn(3))
        newest = s.predict((3,), frame="double")  # looked up first: the unknown entry is after
        assert newest.certain and newest.entry == s.compiles[0].compile_id
        older = s.predict((2,), frame="double")
        assert not older.certain and older.recompiles
        assert "compiled before this capture" in older.conditions[-1]
        assert actual(s, compiled, "double", torch.randn(2))[0] == "served"


def _passed_through(fn: Any) -> Any:
    """A decorator as libraries write them: one ``wrapper`` code object for every function."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


@_passed_through
def _doubled_or_summed(x: torch.Tensor) -> torch.Tensor:
    return x * 2 if x.shape[0] > 4 else x.sum(0)


class _Decorated(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    @_passed_through
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x)


def test_one_decorator_code_serving_two_functions_leaves_the_answer_unsure(tally: Tally) -> None:
    """Torch keeps the entries of every function a decorator wraps in the one cache of its
    ``wrapper`` code, and a call reaches one of them: a function's ``x`` is ``args[0]``, a
    method's is ``args[1]``.  Which one a call given by its sizes reaches is not known."""
    function = torch.compile(_doubled_or_summed, backend="eager")
    module = torch.compile(_Decorated(), backend="eager")
    with symdebug.capture() as s:
        for rows in (3, 8):
            function(torch.randn(rows, 4))
        alone, truth = tally.probe(s, function, (torch.randn(5, 4),), (5, 4), frame="wrapper")
        assert alone.certain and held(alone, truth)
        module(torch.randn(3, 4))
        for compiled in (function, module):
            shared, truth = tally.probe(s, compiled, (torch.randn(6, 4),), (6, 4), frame="wrapper")
            assert not shared.certain, str(shared)
            assert "_Decorated.forward, _doubled_or_summed" in str(shared)


def test_a_decorated_function_s_first_argument_is_no_module_to_read(tally: Tally) -> None:
    """A function's wrapper holds its ``x`` first in ``args``, as a method's holds the module:
    only what the callee names ``self`` is read as the module (a tensor once raised here)."""
    function = torch.compile(_doubled_or_summed, backend="eager")
    kept = torch.randn(8, 4)  # alive while predicting, as a user's tensor is
    with symdebug.capture() as s:
        function(kept)
        function(torch.randn(3, 4))
        for rows in (8, 2):
            prediction, truth = tally.probe(
                s, function, (torch.randn(rows, 4),), (rows, 4), frame="wrapper"
            )
            assert prediction.certain and held(prediction, truth), str(prediction)


def pick(scores: torch.Tensor, k_t: torch.Tensor) -> torch.Tensor:
    probs = scores.softmax(-1)
    k = k_t.item()  # a graph break: the resume frame receives k on its stack (``___stack0``)
    return probs.topk(k, dim=-1).values.sum(-1)


def test_an_int_on_a_resume_frames_stack_is_checked() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(pick, backend="aot_eager")
        for n, k in [(8, 2), (8, 3), (10, 3)]:
            compiled(torch.randn(4, n), torch.tensor(k))
        resume = next(c.name for c in s.compiles if c.name.startswith("torch_dynamo_resume"))
        unsure = s.predict(frame=resume, probs=(4, 10))
        assert not unsure.certain and "L['___stack0']" in str(unsure)
        for k in (3, 1, 100):  # 2 <= k <= probs.shape[1] holds, fails below, fails above
            prediction = s.predict(frame=resume, probs=(4, 10), ___stack0=k)
            before = {c.compile_id for c in s.compiles}
            raised = _raised(compiled, torch.randn(4, 10), torch.tensor(k))
            assert raised == ("TorchRuntimeError" if k == 100 else None)  # topk of 100 of 10
            new = [c for c in s.compiles if c.compile_id not in before and c.name == resume]
            assert prediction.certain
            assert prediction.recompiles == bool(new), (k, str(prediction))


class _Chatty(torch.nn.Module):
    """Its forward breaks before any op when ``verbose``: that compile makes no graph."""

    def __init__(self) -> None:
        super().__init__()
        self.verbose = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.verbose:
            print("forward")  # a graph break with no op before it
        return x * 2


def test_the_module_of_a_compile_that_made_no_graph_is_read() -> None:
    chatty = _Chatty()
    with symdebug.capture() as s:
        compiled = torch.compile(chatty, backend="eager")
        compiled(torch.randn(3))
        assert s.compiles[0].graphs == []  # no graph: the module is read as the compile started
        chatty.verbose = False
        prediction = s.predict(x=(3,), frame="forward")
        before = len(s.compiles)
        compiled(torch.randn(3))
        recompiled = any(c.name == "forward" for c in s.compiles[before:])
    assert prediction.certain and prediction.recompiles and recompiled, prediction
    assert "verbose" in str(prediction)


def _takes_self(self: torch.Tensor) -> torch.Tensor:
    return self + 1


def test_a_parameter_named_self_is_given_by_name() -> None:
    with symdebug.capture() as s:
        torch.compile(_takes_self, backend="eager")(torch.randn(3))
        prediction = s.predict(self=(3,), frame="_takes_self")
    assert prediction.certain and prediction.entry == "0/0"


def _scaled_by(x: torch.Tensor, scale: float) -> torch.Tensor:
    y = x * scale
    return (y + 1 if scale > 2.0 else y).sum()


def test_a_float_compiled_as_nan_serves_only_nan(tally: Tally) -> None:
    """torch's ``FLOAT_IS_NAN`` guard: an entry compiled for NaN fails an int or a number."""
    with symdebug.capture() as s:
        scaled = torch.compile(_scaled_by, backend="aot_eager")
        for scale in (1.5, 2.5, float("nan")):
            scaled(torch.randn(4), scale)
        for scale in (3, float("nan"), 7.5):
            x = torch.randn(4)
            prediction, truth = tally.probe(s, scaled, (x, scale), x, scale, frame="_scaled_by")
            assert held(prediction, truth), f"{prediction}\n  torch: {truth}"
            assert prediction.certain or scale == 7.5, str(prediction)  # floats: not recorded


def _third(x: torch.Tensor) -> torch.Tensor:
    return x.sum() + x.shape[0] // 3


def test_the_limits_a_frame_compiled_with_decide_a_miss(tally: Tally) -> None:
    """``torch.compile(recompile_limit=2)`` and ``accumulated_recompile_limit``: the frame's
    compiles log the limits they ran under, and a miss past them runs eagerly."""
    with symdebug.capture() as s:
        limited = torch.compile(_third, backend="eager", dynamic=False, recompile_limit=2)
        limited(torch.randn(3)), limited(torch.randn(4))
        x = torch.randn(5)
        live = s.predict(x, frame="_third")  # this process's limit (8) is not the frame's (2)
        assert live.runs_eager and not live.certain
        prediction, truth = tally.probe(s, limited, (x,), x, frame="_third")
        assert prediction.certain and prediction.runs_eager and truth[0] == "eager"
    torch._dynamo.reset()
    with torch._dynamo.config.patch(accumulated_recompile_limit=3), symdebug.capture() as s:
        doubled = torch.compile(double, backend="eager", dynamic=False)
        for rows in (3, 4, 5):
            doubled(torch.randn(rows))
        x = torch.randn(6)
        prediction, truth = tally.probe(s, doubled, (x,), x, frame="double")
        assert prediction.certain and prediction.runs_eager and truth[0] == "eager"
        assert "accumulated_recompile_limit (3)" in str(prediction)


@pytest.mark.parametrize(
    ("stance", "rows", "outcome", "certain"),
    [
        ("force_eager", 6, "eager", True),
        ("eager_on_recompile", 1, "eager", True),
        ("fail_on_recompile", 1, "recompile", False),  # torch raises: the answer says it may
    ],
)
def test_the_stance_is_read_at_the_prediction(
    stance: str, rows: int, outcome: str, certain: bool
) -> None:
    """``torch.compiler.set_stance``: predict inside the block the call runs in."""
    with symdebug.capture() as s:
        doubled = torch.compile(double, backend="eager")
        doubled(torch.randn(3)), doubled(torch.randn(4))  # 0/1 serves sizes >= 2
        x = torch.randn(rows)
        with torch.compiler.set_stance(stance):
            prediction = s.predict(x, frame="double")
            truth = actual(s, doubled, "double", x)
    assert (prediction.outcome, prediction.certain) == (outcome, certain), str(prediction)
    assert certain is False or held(prediction, truth)

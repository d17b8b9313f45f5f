"""Causes that used to be ``unknown``, from a real torch.compile: ``mark_static``, a list's
length, an object's identity or type, ``dynamic=False`` and the recompile limit, and a
framework check (``_prims_common``) reached from the user's slice."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator

import pytest
import torch

import symdebug
from symdebug.fixes.fix_code import is_user_code
from symdebug.model.types import Recompile


@pytest.fixture(autouse=True)
def fresh_dynamo() -> Iterator[None]:
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def checked(session: symdebug.Session) -> list[Recompile]:
    """Every recompile has a cause and a fix whose code is the user's Python."""
    assert session.recompiles
    for recompile in session.recompiles:
        assert recompile.cause != "unknown", recompile.reasons
        assert recompile.fixes, recompile.reasons
        for fix in recompile.fixes:
            ast.parse(fix.code)
            assert is_user_code(fix.code), fix.code
            assert fix.explanation and fix.kind in ("setting", "mark", "code")
    return session.recompiles


def test_mark_static_then_a_new_size() -> None:
    def f(x):
        return x * 2  # STATIC USE

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        for n in (4, 5):
            x = torch.randn(n, 3)
            torch._dynamo.mark_static(x, 0)
            cf(x)
    (recompile,) = checked(s)
    assert recompile.cause == "mark_static"
    assert recompile.specialization is not None
    assert recompile.specialization.cause == "mark_static"
    frame = recompile.specialization.user_frame
    # The mark, not the first use inside the compiled function (issue 47, class 9)
    assert frame is not None and frame.filename == __file__ and "mark_static(x, 0)" in frame.line
    assert "mark_dynamic(x, 0)" in recompile.fixes[0].code
    assert s.compiles[0].marked_static == ["L['x'].size()[0]"]


def test_list_length_changes() -> None:
    def g(feats):
        return sum(f.sum() for f in feats)

    with symdebug.capture() as s:
        cg = torch.compile(g, backend="eager")
        cg([torch.randn(3)] * 2)
        cg([torch.randn(3)] * 3)
    (recompile,) = checked(s)
    assert recompile.cause == "length"
    assert recompile.sources == ["L['feats']"]
    code = recompile.fixes[0].code
    assert code == "feats = torch.nn.utils.rnn.pad_sequence(feats, batch_first=True)"
    for feats in ([torch.randn(3)] * 2, [torch.randn(3), torch.randn(5)]):  # stack raises on 2
        scope = {"torch": torch, "feats": feats}
        exec(code, scope)  # the suggested line runs on the lists the user passes
        assert scope["feats"].shape[0] == len(feats)


def _length_recompiles(
    fn: Callable[..., object], calls: list[tuple[object, ...]]
) -> list[Recompile]:
    with symdebug.capture() as s:
        compiled = torch.compile(fn, backend="eager")
        for args in calls:
            compiled(*args)
    recompiles = checked(s)
    assert [r.cause for r in recompiles] == ["length"] * (len(calls) - 1)
    return recompiles


def test_a_dict_whose_length_torch_words_as_a_lists_gets_no_stacking() -> None:
    """``len(opts) > 1`` on a dict fails as ``len(opts) == 1``: the guard tree says dict."""

    def f(ids, opts):
        if len(opts) > 1:
            ids = ids + 1
        return ids * opts["scale"]

    x = torch.ones(4)
    calls = [(x, {"scale": 2.0}), (x, {"scale": 2.0, "b": 1}), (x, {"scale": 2.0, "b": 1, "c": 2})]
    for recompile in _length_recompiles(f, calls):
        assert "len(opts) == " in recompile.reasons[0]
        assert not any("pad_sequence" in fix.code for fix in recompile.fixes)
        assert "another number of keys" in recompile.fixes[0].explanation


def _add_all(x, steps):
    for step in steps:
        x = x + step
    return x


def _add_pairs(x, pairs):
    for a, b in pairs:
        x = x + a * b
    return x


def _add_args(*xs):
    return sum(x.sum() for x in xs)


def _add_means(feats):
    return sum(f.mean() for f in feats)


_T = torch.ones(3)
_M = torch.ones(4, 16)  # pad_sequence pads dim 0 only: (4, 8) beside (4, 16) raises


@pytest.mark.parametrize(
    ("fn", "calls"),
    [
        (_add_all, [(_T, [1, 2]), (_T, [1, 2, 3])]),  # ints
        (_add_all, [(_T, [_T, 1]), (_T, [_T, 1, 2])]),  # a tensor and ints
        (_add_pairs, [(_T, [(_T, _T)]), (_T, [(_T, _T), (_T, _T)])]),  # pairs of tensors
        (_add_args, [(_T, _T), (_T, _T, _T)]),  # *xs: the caller passes no list
        (_add_means, [([_M[:, :8], _M],), ([_M[:, :8], _M, _M[:, :4]],)]),  # (4, 8), (4, 16)
    ],
    ids=["ints", "mixed", "pairs", "varargs", "uneven"],
)
def test_a_container_that_is_not_a_list_of_tensors_gets_no_stacking(
    fn: Callable[..., object], calls: list[tuple[object, ...]]
) -> None:
    """``pad_sequence`` would raise on each of these (or, for ``*xs``, fit no caller)."""
    if fn is _add_means:
        with pytest.raises(RuntimeError):
            torch.nn.utils.rnn.pad_sequence(calls[0][0], batch_first=True)
    (recompile,) = _length_recompiles(fn, calls)
    assert not any("pad_sequence" in fix.code for fix in recompile.fixes)
    assert recompile.fixes[0].code.startswith("torch._dynamo.config.recompile_limit")


def test_a_list_of_another_inputs_tensor_is_stacked() -> None:
    """``[x, x]``: its items have no ``TENSOR_MATCH``, only ``L['x'] is L['xs'][0]``."""

    def f(x, xs):
        for t in xs:
            x = x + t
        return x

    x = torch.ones(3)
    (recompile,) = _length_recompiles(f, [(x, (x, x)), (x, (x, x, x))])
    assert recompile.fixes[0].code == "xs = torch.nn.utils.rnn.pad_sequence(xs, batch_first=True)"


@pytest.mark.parametrize("keys", [("ab", "cd"), ("a\xa0b", "c\u2028d\x01")])
def test_dict_keys_and_length_change(keys: tuple[str, str]) -> None:
    """Another key, then another number of keys: no list to stack, and odd keys are text."""

    def f(x, d):
        for value in d.values():
            x = x + value
        return x

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        cf(torch.ones(3), {keys[0]: 1.0})
        cf(torch.ones(3), {keys[1]: 1.0})
        cf(torch.ones(3), {keys[1]: 1.0, "z": 2.0})
    key_change, length_change = checked(s)
    assert (key_change.cause, length_change.cause) == ("identity", "length")
    assert key_change.sources == length_change.sources == ["L['d']"]
    assert f"it had the key {keys[0]!r}" in key_change.fixes[0].explanation
    assert "another number of keys" in length_change.fixes[0].explanation
    assert not any("pad_sequence" in fix.code for r in s.recompiles for fix in r.fixes)
    assert "recompiled because (identity)" in str(s)
    assert len(json.loads(s.to_json())["recompiles"]) == 2


def test_a_training_flag_a_string_and_a_rank_are_what_changed() -> None:
    """Torch's own reasons: ``self.training == True``, ``mode == 'a'``, a rank mismatch."""

    class Net(torch.nn.Module):
        def forward(self, x, mode):
            x = torch.nn.functional.dropout(x, 0.5) if self.training else x
            return x.sum() * 2 if mode == "a" else x.sum()

    net = Net()
    with symdebug.capture() as s:
        compiled = torch.compile(net, backend="eager")
        compiled(torch.ones(3), "a")
        compiled(torch.ones(3), "b")
        net.eval()
        compiled(torch.ones(3), "b")
        compiled(torch.ones(3, 2), "b")
    changes = [r.fixes[0].explanation.split(":")[0] for r in checked(s)]
    assert changes[0::2] == [
        "mode has another value than the compile saw ('a')",
        "x has another number of dims than the compile saw (1)",
    ]
    # a rank change is never "fixed" by a higher recompile_limit (issue 46, point 5)
    ranked = checked(s)[-1]
    assert [f.code for f in ranked.fixes] == ["x = x.reshape(-1)"]
    assert "recompile_limit" not in str(ranked.fixes)
    # train() / eval(): each mode compiles once, both stay cached (issue 31, point 6)
    training = checked(s)[1].fixes[0]
    assert training.code == "self.eval()"
    assert "self.training was True when compiled" in training.explanation
    assert "each mode compiles once" in training.explanation


def test_a_key_that_came_later() -> None:
    """``"labels" in batch`` compiled without the key: torch's ``___dict_contains`` check."""

    def step(batch):
        out = batch["input_ids"] * 2
        if "labels" in batch:
            out = out - batch["labels"]
        return out.sum()

    with symdebug.capture() as s:
        cs = torch.compile(step, backend="eager")
        cs({"input_ids": torch.ones(4)})
        cs({"input_ids": torch.ones(4), "labels": torch.ones(4)})
    (recompile,) = checked(s)
    assert recompile.cause == "identity" and recompile.sources == ["L['batch']"]
    assert "it was without 'labels'" in recompile.fixes[0].explanation
    assert "each set of keys compiles once" in recompile.fixes[0].explanation


def test_a_mark_on_a_key_a_call_may_leave_out_runs_before_any_call() -> None:
    def step(batch):
        out = batch["x"] * 2
        if "bias" in batch:
            out = out + batch["bias"]
        return out.sum()

    with symdebug.capture() as s:
        cs = torch.compile(step, backend="eager")
        cs({"x": torch.ones(3, 4)})
        cs({"x": torch.ones(3, 4), "bias": torch.ones(4)})
        cs({"x": torch.ones(5, 4)})
    marks = {f.code for item in s.specializations for f in item.fixes if f.kind == "mark"}
    assert "if 'bias' in batch: torch._dynamo.maybe_mark_dynamic(batch['bias'], 0)" in marks
    for code in marks:  # before a first call without the key, as each fix says
        exec(code, {"torch": torch, "batch": {"x": torch.ones(3, 4)}})


def test_a_list_that_was_empty() -> None:
    def g(x, xs):
        x = x * 2
        for t in xs:
            x = x + t
        return x

    with symdebug.capture() as s:
        cg = torch.compile(g, backend="eager")
        cg(torch.ones(3), [])
        cg(torch.ones(3), [torch.ones(3)])
    (recompile,) = checked(s)
    assert recompile.cause == "length" and recompile.sources == ["L['xs']"]
    assert recompile.fixes[0].code.startswith("xs = torch.nn.utils.rnn.pad_sequence(xs")


def test_another_function_object() -> None:
    def h(x, fn):
        return fn(x)

    with symdebug.capture() as s:
        ch = torch.compile(h, backend="eager")
        for fn in (torch.sin, torch.cos, torch.tan):
            ch(torch.randn(3), fn)
    recompiles = checked(s)
    assert {r.cause for r in recompiles} == {"identity"}
    explanations = " ".join(f.explanation for r in recompiles for f in r.fixes)
    assert "fn" in explanations and "builtin_function_or_method" in explanations
    assert all("torch._dynamo.config.recompile_limit" in r.fixes[0].settings for r in recompiles)


def test_a_changing_type() -> None:
    class A:
        pass

    class B:
        pass

    def q(x, o):
        return x + 1 if isinstance(o, A) else x - 1

    def k(x, n):
        return x * 2 if n is None else x * n

    with symdebug.capture() as s:
        cq = torch.compile(q, backend="eager")
        cq(torch.randn(3), A())
        cq(torch.randn(3), B())
        ck = torch.compile(k, backend="eager")
        ck(torch.randn(3), None)
        ck(torch.randn(3), torch.randn(3))
    recompiles = checked(s)
    assert [r.cause for r in recompiles] == ["identity", "identity"]
    texts = [r.fixes[0].explanation for r in recompiles]
    assert "o has another type" in texts[0] and "n was None" in texts[1]


def test_dynamic_false_hits_the_recompile_limit() -> None:
    def m(x):
        return x + 1

    with torch._dynamo.config.patch(recompile_limit=2), symdebug.capture() as s:
        cm = torch.compile(m, backend="eager", dynamic=False)
        for n in range(2, 6):
            cm(torch.randn(n))
    recompiles = checked(s)
    assert [r.cause for r in recompiles] == ["dynamic_false", "dynamic_false"]
    hit = next(c for c in s.compiles if c.status == "failed")
    assert hit.name == "m" and s.compiles[0].automatic_dynamic is False
    last = recompiles[-1]
    assert last.compile_id == hit.compile_id
    assert last.fixes[0].code == "torch._dynamo.maybe_mark_dynamic(x, 0)"
    assert last.fixes[1].settings == {"torch._dynamo.config.recompile_limit": 4}


def test_framework_check_reached_from_a_slice() -> None:
    def sl(y):
        return y[: y.shape[0] // 2].contiguous() * 2  # SLICE

    with symdebug.capture() as s:
        cs = torch.compile(sl, backend="aot_eager")
        for n in (8, 6, 2):
            cs(torch.randn(n, 3))
    recompiles = checked(s)
    assert [r.cause for r in recompiles] == ["static_by_default", "op_requirement"]
    slice_ = recompiles[1]
    assert "(y.size()[0] // 2) != 1" in slice_.reasons[0]
    assert "# SLICE" in slice_.reasons[0] and "_dynamo/utils.py" in slice_.reasons[0]
    assert slice_.guard is not None and slice_.guard.expr.startswith("Ne(")
    assert "# SLICE" in slice_.guard.user_frame.line
    assert slice_.fixes[0].settings == {"torch.fx.experimental._config.backed_size_oblivious": True}


def test_a_guarded_line_whose_comment_quotes_a_guard_is_read_as_its_own_guard() -> None:
    # Torch prints the user's line, comment and all, after each guard of the tree.
    def f(x, mask, xs):
        if mask is not None:  # assert ok  # LENGTH_CHECK: len(xs) == 2
            x = x + mask
        return x + sum(t.sum() for t in xs)

    compiled = torch.compile(f, backend="eager")
    with symdebug.capture() as session:
        compiled(torch.ones(4, 3), None, [torch.ones(2)])
    [compile_] = session.compiles
    assert [check.code for check in compile_.shape_checks] == ["len(L['xs']) == 1"]
    assert "L['mask'] is None" in [check.code for check in compile_.value_checks]

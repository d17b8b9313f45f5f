"""Every cause class, from a real torch.compile: cause, state of the source, user line,
and the recompile it explains (causes of hand-built guards: ``unit/test_causes_facts.py``)."""

from __future__ import annotations

import pytest
import torch
from torch_differences import described, since

import symdebug
from symdebug.model.types import Fix, Recompile
from symdebug.processors.fixes import DYNAMIC_SOURCES, SIZE_OBLIVIOUS


def codes(fixes: list[Fix]) -> list[str]:
    return [fix.code for fix in fixes]


def lone_marks(fixes: list[Fix]) -> list[Fix]:
    """Fixes that only mark a size dynamic (no help for a size of 0 or 1)."""
    return [f for f in fixes if "mark_dynamic" in f.code and SIZE_OBLIVIOUS not in f.settings]


def only_recompile(session: symdebug.Session) -> Recompile:
    assert len(session.recompiles) == 1, [r.reasons for r in session.recompiles]
    return session.recompiles[0]


def test_user_branch_on_a_size() -> None:
    def f(x):
        if x.shape[0] > 4:  # BRANCH
            return x * 2
        return x + 1

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(8, 3))
        cf(torch.randn(3, 3))
    guard = next(g for g in s.guards if g.compile_id == "0/0")
    assert (guard.expr, guard.cause, guard.status) == ("s77 > 4", "user_branch", "installed")
    assert guard.fx_node is None and guard.instruction.startswith("POP_JUMP")
    assert "# BRANCH" in guard.user_frame.line
    recompile = only_recompile(s)
    assert (recompile.failed_entry, recompile.cause, recompile.guard) == (
        "0/0",
        "user_branch",
        guard,
    )
    explanation = s.why("x", 0)
    assert explanation.state == "dynamic"
    assert explanation.recompiles == [recompile]
    # A fix, not an assertion of the branch's condition (that would make x.shape[0] <= 4 raise).
    assert [f.code for f in guard.fixes] == ["torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))"]
    assert guard.fix == str(guard.fixes[0])


def test_view_needs_divisibility() -> None:
    def f(x):
        return x.view(-1, 2).sum(0)  # VIEW

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(8))
        cf(torch.randn(6))  # divisible: served by the same entry
    guard = next(g for g in s.guards if "Mod" in g.expr)
    assert guard.cause == "op_requirement" and guard.fx_node == "view"
    assert "# VIEW" in guard.user_frame.line
    assert guard.sources == ["L['x'].size()[0]"]
    assert guard.fixes[0].code.startswith("x = torch.nn.functional.pad(x.movedim(0, -1)")
    assert not any("torch._check" in f.code for f in guard.fixes)
    assert s.why("x", 0).state == "dynamic"
    assert s.recompiles == [] and len(s.compiles) == 1


def test_recompile_links_the_guard_the_view_installed() -> None:
    def f(x):
        b, n = x.shape
        return x[:, : n // 4 * 4].view(b, -1, 4).sum(-1)  # SLICE THEN VIEW

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(2, 8))
        cf(torch.randn(2, 10))  # the slice is no longer the whole row: not contiguous
    # The slice evaluates the same expression first, under suppressed guards; the view's
    # contiguity check installs it. The installed one is the guard, with the view's provenance.
    recompile = only_recompile(s)
    assert recompile.cause == "op_requirement"
    assert (recompile.guard.expr, recompile.guard.fx_node) == ("Eq(s27, 4*((s27//4)))", "view")
    assert recompile.guard.framework_frame.name == "check_contiguous_sizes_strides"
    assert "# SLICE THEN VIEW" in recompile.guard.user_frame.line


def test_broadcast_equality_recompiles_as_op_requirement() -> None:
    def f(a, b):
        return a + b  # BROADCAST

    with torch.fx.experimental._config.patch(use_duck_shape=False), symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(4), torch.randn(4))
        cf(torch.randn(4), torch.randn(1))  # legal broadcasting, but the entry assumed equal
    guard = next(g for g in s.guards if g.compile_id == "0/0" and g.expr.startswith("Eq("))
    assert guard.cause == "op_requirement" and guard.fx_node == "add"
    assert "# BROADCAST" in guard.user_frame.line
    recompile = only_recompile(s)
    assert recompile.cause == "op_requirement" and recompile.guard is guard


def test_int_argument_used_in_range() -> None:
    def f(x, n):
        for _ in range(n):  # LOOP
            x = x + 1
        return x

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        for n in (2, 3, 4):
            cf(torch.randn(3), n)
    first, second = s.recompiles
    assert first.cause == "static_by_default" and first.specialization.source == "L['n']"
    assert second.cause == "int_specialized" and second.failed_entry == "0/1"
    assert second.guard.expr == "Eq(s86, 3)"
    explanation = s.why("n")
    assert (explanation.state, explanation.cause, explanation.value) == (
        "specialized",
        "int_specialized",
        4,
    )
    assert "# LOOP" in explanation.user_frame.line
    assert explanation.recompiles == [first, second]


def test_module_with_int_attribute() -> None:
    class Scale(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.k = 2

        def forward(self, x):
            return x * self.k  # ATTRIBUTE

    module = Scale()
    with symdebug.capture() as s:
        cf = torch.compile(module, backend="eager")
        cf(torch.randn(3))
        module.k = 3
        cf(torch.randn(3))
    recompile = only_recompile(s)
    assert recompile.cause == "int_specialized"
    assert recompile.specialization.source == "L['self'].k"
    assert "# ATTRIBUTE" in recompile.specialization.user_frame.line
    assert recompile.fix.startswith("torch.compiler.config.dynamic_sources = \"L['self'].k\"")
    assert any("allow_unspec_int_on_nn_module" in fix.code for fix in recompile.fixes)
    assert s.why("L['self'].k").state == "specialized"


def test_first_call_with_batch_size_one() -> None:
    def f(x):
        return x * 2  # USE

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(1, 3))
        cf(torch.randn(6, 3))
    spec = next(sp for sp in s.specializations if sp.compile_id == "0/0")
    assert (spec.source, spec.value, spec.cause) == ("L['x'].size()[0]", 1, "zero_one")
    assert "# USE" in spec.user_frame.line
    assert spec.fixes[0].settings == {SIZE_OBLIVIOUS: True}
    assert "torch._dynamo.decorators.mark_unbacked(x, 0)" in codes(spec.fixes)
    recompile = only_recompile(s)
    assert recompile.cause == "zero_one" and recompile.specialization is spec
    history = s.why("x", 0).history
    assert [state for _, state, _ in history] == ["specialized", "dynamic"]


def test_batch_of_one_after_automatic_dynamic() -> None:
    def f(x):
        return x * 2  # USE

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        for shape in ((1, 8), (4, 12), (1, 17)):  # the third fails both entries
            cf(torch.randn(*shape))
    first, second = s.recompiles
    assert (first.cause, second.cause) == ("static_by_default", "zero_one")
    # The batch was dynamic in 0/1: in 0/2 only the 0/1 rule makes it 1 again.
    spec = next(sp for sp in s.specializations if sp.compile_id == "0/2")
    assert (spec.source, spec.value, spec.cause) == ("L['x'].size()[0]", 1, "zero_one")
    assert "torch._dynamo.decorators.mark_unbacked(x, 0)" in codes(spec.fixes)
    assert spec.fixes[0].settings == {SIZE_OBLIVIOUS: True} and not lone_marks(spec.fixes)
    assert s.why("x", 0).cause == "zero_one"


def test_mark_dynamic_on_a_size_one_dim_is_zero_one() -> None:
    """mark_dynamic does not keep a size-1 dim symbolic: the 0/1 rule wins, silently."""

    def f(x):
        return x * 2

    x = torch.randn(1, 3)
    torch._dynamo.mark_dynamic(x, 0)
    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        cf(x)
        cf(torch.randn(5, 3))
    (recompile,) = s.recompiles
    assert recompile.cause == "zero_one"
    assert "torch._dynamo.decorators.mark_unbacked(x, 0)" in codes(recompile.fixes)
    assert recompile.fixes[0].settings == {SIZE_OBLIVIOUS: True}
    assert not lone_marks(recompile.fixes)  # marking a size of 1 dynamic does nothing
    spec = next(sp for sp in s.specializations if sp.source == "L['x'].size()[0]")
    assert (spec.compile_id, spec.value, spec.cause) == ("0/0", 1, "zero_one")


def test_zero_one_recompile_fix_names_the_input() -> None:
    def f(ids):
        return ids * 2

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        for shape in ((1, 8), (4, 12), (1, 17)):
            cf(torch.randn(*shape))
    second = s.recompiles[1]
    assert second.guard is None and second.specialization is None  # a bound no guard set
    assert "torch._dynamo.decorators.mark_unbacked(ids, 0)" in codes(second.fixes)


def test_two_inputs_of_equal_size() -> None:
    def f(a, b):
        return a.sum() + b.sum()  # DUCK

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(4), torch.randn(4))
        cf(torch.randn(4), torch.randn(5))
    symbol = next(sym for sym in s.symbols if sym.compile_id == "0/0")
    assert symbol.state == "duck-sized" and symbol.sources == [
        "L['a'].size()[0]",
        "L['b'].size()[0]",
    ]
    assert "# DUCK" in symbol.user_frame.line
    recompile = only_recompile(s)
    assert recompile.cause == "duck_sizing"
    assert "use_duck_shape = False" in recompile.fix
    assert s.why("b", 0).state == "dynamic"


def test_static_by_default_first_compile() -> None:
    def f(x):
        return x * 2  # STATIC

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager")
        cf(torch.randn(8, 3))
        cf(torch.randn(6, 3))
    recompile = only_recompile(s)
    assert recompile.cause == "static_by_default"
    spec = recompile.specialization
    assert (spec.source, spec.value, spec.compile_id) == ("L['x'].size()[0]", 8, "0/0")
    assert "# STATIC" in spec.user_frame.line
    assert recompile.fixes[0].code == "torch._dynamo.maybe_mark_dynamic(x, 0)"
    assert recompile.fixes[0].settings == {DYNAMIC_SOURCES: "L['x']:0"}
    assert s.why("x", 1).state == "static-by-default"


def test_mark_dynamic_violated() -> None:
    def f(x):
        return x.view(8, -1)  # FIXES IT

    x = torch.randn(8, 4)
    torch._dynamo.mark_dynamic(x, 0)
    with symdebug.capture() as s, pytest.raises(Exception, match="Constraints violated"):
        torch.compile(f, backend="eager")(x)
    (compile_,) = s.compiles
    assert compile_.status == "failed" and compile_.fail_type == "ConstraintViolationError"
    spec = next(sp for sp in s.specializations if sp.source == "L['x'].size()[0]")
    assert (spec.value, spec.cause) == (8, "mark_dynamic_violated")
    assert "# FIXES IT" in spec.user_frame.line
    assert any(g.expr == "Eq(s77, 8)" for g in spec.guards)
    explanation = s.why("x", 0)
    assert (explanation.state, explanation.cause) == ("specialized", "mark_dynamic_violated")
    assert s.recompiles == []


def test_inductor_guard_causes_recompile() -> None:
    def f(x):
        return x.sum(0)  # REDUCE

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="inductor", dynamic=True)
        cf(torch.randn(100, 3))
        cf(torch.randn(5000, 3))
    guard = next(g for g in s.guards if g.compile_id == "0/0")
    assert (guard.expr, guard.cause, guard.phase) == ("s77 <= 4096", "inductor", "inductor")
    assert any(f.name == "need_use_acc_helper" for f in guard.framework_stack)
    recompile = only_recompile(s)
    assert recompile.cause == "inductor" and recompile.guard is guard
    assert s.why("x", 0).state == "dynamic"


def test_backward_guard_causes_recompile() -> None:
    def f(x, w):
        return torch.relu(x) * w  # BACKWARD REDUCES OVER ROWS

    w = torch.randn(3, requires_grad=True)
    with symdebug.capture() as s:
        cf = torch.compile(f, backend="inductor", dynamic=True)
        cf(torch.randn(100, 3), w).sum().backward()
        cf(torch.randn(5000, 3), w).sum().backward()
    guard = next(g for g in s.guards if g.compile_id == "0/0" and g.status == "installed")
    assert (guard.expr, guard.cause) == ("s77 <= 4096", "backward")
    assert guard.aot_graph.endswith("_backward") and guard.phase == "inductor"
    suppressed = [g for g in s.guards if g.status == "suppressed"]
    if since("no_suppressed_backward_stride_guard"):
        assert not suppressed, described("no_suppressed_backward_stride_guard")
    else:  # AOT's stride check of the backward input, evaluated under suppression
        assert suppressed and all(g.cause == "backward" for g in suppressed)
    recompile = only_recompile(s)
    assert recompile.cause == "backward" and recompile.guard is guard


def test_why_lists_the_recompile_a_range_bound_caused() -> None:
    """``2 <= x.size()[0]`` failing links to no guard, yet it is the batch's recompile."""

    def f(x):
        return x * 2

    with symdebug.capture() as s:
        cf = torch.compile(f, backend="eager", dynamic=True)
        cf(torch.randn(4, 3))
        cf(torch.randn(1, 3))
    answer = s.why("x", 0)
    assert answer.cause == "zero_one"
    assert [r.compile_id for r in answer.recompiles] == ["0/1"]
    assert s.why("x", 1).recompiles == []


def test_a_size_pinned_by_an_index_is_an_op_requirement_not_the_branch_beside_it() -> None:
    """``h[:, t - 1]`` pins ``t`` (``Eq(s - 1, 4)``); the branch ``if t > 8`` only bounds it."""

    def last(x):
        t = x.shape[1]
        if t > 8:
            x = x * 0.5
        return x[:, t - 1]

    with symdebug.capture() as s:
        compiled = torch.compile(last, backend="aot_eager")
        for t in (4, 6, 12, 5):
            compiled(torch.randn(2, t))
    spec = next(
        sp
        for sp in s.specializations
        if sp.compile_id == s.compiles[-1].compile_id and sp.source == "L['x'].size()[1]"
    )
    assert spec.cause == "op_requirement"
    assert spec.guards[0].expr.startswith("Eq(") and spec.user_frame is not None
    assert spec.user_frame.line.strip() == "return x[:, t - 1]"
    assert s.recompiles[-1].cause == "op_requirement"

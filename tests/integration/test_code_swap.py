"""Rewrites swapped into live functions under real torch.compile: fewer compiles, the same
outputs, closures and ``super()`` kept, and the original code back after the block."""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator

import pytest
import torch
from torch._dynamo.testing import CompileCounterWithBackend

from symdebug.fixes.code_rewrites import Rewrite, rewrite
from symdebug.live.code_swap import code_swapped, function_at, function_source, rewritten_code

PRINT = "torch._dynamo.config.reorderable_logging_functions.add(print)"


@pytest.fixture(autouse=True)
def no_caches() -> Iterator[None]:
    """No compile served from an earlier test's caches: every count is this test's."""
    before = torch.compiler.config.force_disable_caches
    torch.compiler.config.force_disable_caches = True
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()
    torch.compiler.config.force_disable_caches = before


def last_step(h):
    return h[:, h.shape[1] - 1]


def by_size(x):
    if x.shape[0] > 4:
        return x.sin()
    else:  # noqa: RET505 - the shape the fix's users write
        return x.cos()


def make_scaled(scale):
    def scaled(h):
        return h[:, h.shape[1] - 1] * scale

    return scaled


def make_logged(tag):
    def logged(h):
        print(tag)
        return h * 2

    return logged


class Base(torch.nn.Module):
    def forward(self, h):
        return h * 2


class Head(Base):
    def forward(self, h):
        out = super().forward(h)
        return out[:, out.shape[1] - 1]

    def plain(self, h):
        return h


def line_of(fn: Callable[..., object], text: str) -> int:
    """The file's line of the first line of ``fn`` holding ``text``."""
    found = function_source(fn)  # type: ignore[arg-type]
    assert found is not None
    source, first = found
    return first + next(i for i, line in enumerate(source.splitlines()) if text in line)


def rewritten(fn: types.FunctionType, text: str, fix: str) -> types.CodeType:
    """The code of ``fn`` with ``fix`` written in at its line holding ``text``."""
    found = function_source(fn)
    assert found is not None
    result = rewrite(*found, line_of(fn, text), fix, filename=fn.__code__.co_filename)
    assert isinstance(result, Rewrite), result
    return rewritten_code(fn, result.after, result.firstlineno)


def compiles(fn: Callable[..., torch.Tensor], inputs: list[torch.Tensor], **options: object) -> int:
    """How many graphs torch compiles for the calls; each output checked against ``expected``."""
    torch._dynamo.reset()
    counter = CompileCounterWithBackend("aot_eager")
    compiled = torch.compile(fn, backend=counter, **options)  # type: ignore[call-overload]
    for x, want in zip(inputs, EXPECTED[id(fn)], strict=True):
        torch.testing.assert_close(compiled(x), want)
    return int(counter.frame_count)


EXPECTED: dict[int, list[torch.Tensor]] = {}


def expect(fn: Callable[..., torch.Tensor], inputs: list[torch.Tensor]) -> None:
    """The original function's eager outputs: what every compiled run must give."""
    EXPECTED[id(fn)] = [fn(x) for x in inputs]


def test_index_from_the_end_compiles_less() -> None:
    inputs = [torch.randn(2, n) for n in (3, 4, 5)]
    expect(last_step, inputs)
    original = last_step.__code__
    assert compiles(last_step, inputs) == 3  # static, then the index pins each size
    with code_swapped(last_step, rewritten(last_step, "h.shape[1] - 1", "h[:, -1]")):
        assert compiles(last_step, inputs) == 2  # static, then one dynamic graph
    assert last_step.__code__ is original


def test_torch_cond_traces_both_sides_in_one_graph() -> None:
    inputs = [torch.randn(n, 7) for n in (3, 5, 6, 2)]  # 7: no size equal to another
    expect(by_size, inputs)
    fix = "torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))"
    assert compiles(by_size, inputs, dynamic=True) == 2  # one graph per side, by guard
    with code_swapped(by_size, rewritten(by_size, "if x.shape[0] > 4", fix)):
        assert compiles(by_size, inputs, dynamic=True) == 1  # torch.cond holds both sides


def test_a_closure_keeps_its_cells() -> None:
    scaled = make_scaled(3.0)
    inputs = [torch.randn(2, n) for n in (3, 4, 5)]
    expect(scaled, inputs)
    code = rewritten(scaled, "h.shape[1] - 1", "h[:, -1]")
    assert code.co_freevars == ("scale",)
    assert code.co_qualname == "make_scaled.<locals>.scaled"
    with code_swapped(scaled, code):
        assert compiles(scaled, inputs) == 2
    assert scaled.__code__ is not code


def test_a_closure_name_only_the_removed_print_read_stays_free(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logged = make_logged("tag")
    code = rewritten(logged, "print(tag)", PRINT)
    assert code.co_freevars == ("tag",)
    with code_swapped(logged, code):
        assert torch.equal(logged(torch.ones(2)), torch.full((2,), 2.0))
    assert capsys.readouterr().out == ""
    logged(torch.ones(2))
    assert capsys.readouterr().out == "tag\n"


def test_a_method_calling_super_swaps_and_is_restored() -> None:
    forward = Head.forward
    inputs = [torch.randn(2, n) for n in (3, 4, 5)]
    module = Head()
    EXPECTED[id(module)] = [module(x) for x in inputs]
    original = forward.__code__
    assert compiles(module, inputs) == 3
    code = rewritten(forward, "out.shape[1] - 1", "out[:, -1]")  # type: ignore[arg-type]
    assert code.co_freevars == ("__class__",)
    with code_swapped(forward, code):  # type: ignore[arg-type]
        assert compiles(module, inputs) == 2
    assert forward.__code__ is original


def test_a_rewrite_reading_a_closure_the_original_does_not_is_refused() -> None:
    after = "    def plain(self, h):\n        return super().plain(h)\n"
    with pytest.raises(ValueError, match="reads a closure name the original does not"):
        rewritten_code(Head.plain, after, line_of(Head.plain, "def plain"))  # type: ignore[arg-type]


def test_a_rewrite_reading_a_global_its_module_lacks_is_refused() -> None:
    namespace: dict[str, object] = {}
    exec("def f(x):\n    return x\n", namespace)  # a module without torch
    fn = namespace["f"]
    assert isinstance(fn, types.FunctionType)
    with pytest.raises(ValueError, match="reads torch, which its module does not define"):
        rewritten_code(fn, "def f(x):\n    return torch.cond(x, x.sin, x.cos, ())\n", 1)


def test_function_at_finds_methods_and_nested_functions() -> None:
    scaled = make_scaled(2.0)
    here = __file__
    assert function_at(here, line_of(Head.forward, "super().forward")) is Head.forward
    assert function_at(here, line_of(scaled, "h.shape[1] - 1")) is scaled
    assert function_at(here, line_of(make_scaled, "return scaled")) is make_scaled
    assert function_at(here, line_of(make_scaled, "def scaled")) is scaled
    assert function_at(here, 1) is None
    assert function_at("/no/such/file.py", 10) is None

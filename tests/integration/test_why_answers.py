"""``why`` from a real compile: guards in the user's names, and a tensor asked without its dim."""

from __future__ import annotations

import pytest
import torch

import symdebug


def sized(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.shape[0] * y.shape[0] == 18:
        return x.sum() + 1
    return x.sum() + y[: x.shape[0] + 1].sum()


def rows(x: torch.Tensor) -> torch.Tensor:
    return x * 2


def test_guards_read_in_the_user_names_with_torch_text_beside() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(sized, backend="eager")
        for n in (6, 8, 10):
            compiled(torch.randn(n, 4), torch.randn(n - 3))
    text = str(s.why("x", 0))
    assert text.startswith("x.shape[0] (L['x'].size()[0]) is dynamic = 8 in compile 0/1")
    guards = [line.strip() for line in text.splitlines() if line.strip().startswith("guard: ")]
    products = [g for g in guards if "!= 18" in g]
    assert len(products) == 1, guards
    python, torch_text = products[0][len("guard: ") :].split("  (torch: ")
    assert sorted(python.split(" != ")[0].split(" * ")) == ["x.shape[0]", "y.shape[0]"]
    assert torch_text.startswith("Ne(") and "s" in torch_text
    assert all(
        "Eq(" not in g.split("  (torch:")[0] and "Ne(" not in g.split("  (torch:")[0]
        for g in guards
    )


def test_a_tensor_asked_without_its_dim() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(rows, backend="eager")
        for n in (4, 5):
            compiled(torch.randn(n))
    assert s.why("x").source == "L['x'].size()[0]"  # a 1-d tensor: its one dim
    with symdebug.capture() as two:
        compiled = torch.compile(sized, backend="eager")
        for n in (6, 8, 10):
            compiled(torch.randn(n, n), torch.randn(n - 3))
    with pytest.raises(KeyError, match=r"why\('x', 0\) for x.shape\[0\], why\('x', 1\)"):
        two.why("x")


def nonzero_rows(x: torch.Tensor) -> torch.Tensor:
    return x.nonzero().float().sum() + x.shape[0]


def test_a_symbol_asked_by_its_name() -> None:
    with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True), symdebug.capture() as s:
        compiled = torch.compile(nonzero_rows, backend="eager")
        for n in (5, 7):
            compiled(torch.randn(n))
    dynamic = next(sym for sym in s.symbols if "L['x'].size()[0]" in sym.sources)
    assert s.why(dynamic.name).source == "L['x'].size()[0]"  # the input it stands for
    unbacked = next(sym for sym in s.symbols if sym.state == "unbacked")
    with pytest.raises(KeyError, match="a symbol torch created, not an input"):
        s.why(unbacked.name)


def test_the_documents_steps_say_the_users_names_beside_torchs() -> None:
    """The viewer's why tab draws the document's steps: user names first (issue 46, 21)."""
    with symdebug.capture() as s:
        compiled = torch.compile(sized, backend="eager")
        for n in (6, 8, 10):
            compiled(torch.randn(n, 4), torch.randn(n - 3))
    explained = next(e for e in s.facts.explanations if e.source == "L['x'].size()[0]")
    assert explained.user_name == "x.shape[0]"  # the picker's label: x.shape[0] (L['x']...)
    state, *rest = explained.steps
    assert state.text.startswith("x.shape[0] (L['x'].size()[0]) is dynamic")
    guards = [step.text for step in rest if step.kind == "guard"]
    assert guards and all("  (torch: " in text for text in guards), guards
    assert all(not text.startswith(("Eq(", "Ne(", "s")) for text in guards), guards

"""The fixes suggested for real ``torch.compile`` runs, for each fix issue 11 found wrong.

Each was once a suggestion that turned a recompile into a crash or was not Python: a
``torch._check`` of a branch condition, sympy printed into code (``Eq(Mod(...))``), a check
pinning ``T`` for ``h[:, T - 1]``, ``mark_unbacked`` first on decode loops (4 compiles to
31), ``mark_dynamic`` of a size of 1 (no effect) and Dynamo's internal names
(``___stack0``).  Now every fix parses, is in the user's names, asserts no branch
condition, and the rewrites suggested keep the program correct at every size.
"""

from __future__ import annotations

import ast

import pytest
import torch
from torch_compiles import torch_compiles

import symdebug
from symdebug.fixes.fix_code import is_user_code
from symdebug.model.types import Fix
from symdebug.processors.fixes import SIZE_OBLIVIOUS, STATIC_BY_DEFAULT

#: Never anywhere in a fix's code; Dynamo's scopes (``L[``) only inside a setting's string,
#: which names the input as Dynamo does (``is_user_code`` checks that).
SHOWN = ("Eq(", "Ne(", "Mod(", "___")


def all_fixes(session: symdebug.Session) -> list[tuple[str, Fix]]:
    """Every fix of the session, with the cause of the record that suggests it."""
    facts = session.facts
    records = [*facts.guards, *facts.specializations, *facts.recompiles, *facts.symbols]
    found = [(record.cause or "unknown", fix) for record in records for fix in record.fixes]
    return found + [(e.cause or "unknown", fix) for e in facts.explanations for fix in e.fixes]


def assert_valid(session: symdebug.Session) -> None:
    fixes = all_fixes(session)
    assert fixes, "the run should suggest fixes"
    for cause, fix in fixes:
        ast.parse(fix.code)
        assert is_user_code(fix.code), fix.code
        for text in SHOWN:
            assert text not in fix.code, fix.code
        if cause == "user_branch":
            assert "torch._check" not in fix.code, fix.code


def codes(fixes: list[Fix]) -> list[str]:
    return [fix.code for fix in fixes]


def compiles(fn: object, calls: list[torch.Tensor], **options: object) -> int:
    """How many times torch compiled ``fn`` over the calls, by its own compilation metrics
    (symdebug's capture of the same run must count as many)."""
    torch._dynamo.reset()
    with torch_compiles() as counted, symdebug.capture() as session:
        compiled = torch.compile(fn, backend="eager", **options)  # type: ignore[call-overload]
        for x in calls:
            torch.testing.assert_close(compiled(x), fn(x))  # type: ignore[operator]
    assert len(session.compiles) == counted.total
    return counted.total


# ---------------------------------------------------------------- a branch on a size


def small_or_large(x: torch.Tensor) -> torch.Tensor:
    if x.shape[0] < 64:
        return x * 2
    return x + 1


def test_branch_is_rewritten_with_torch_cond_not_asserted() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(small_or_large, backend="eager")
        for n in (8, 16, 128):
            compiled(torch.randn(n, 3))
    recompile = s.recompiles[-1]
    assert recompile.cause == "user_branch"
    assert codes(recompile.fixes) == ["torch.cond(x.shape[0] < 64, true_fn, false_fn, (x,))"]
    assert_valid(s)
    # The fix as written keeps batch 128 (the other side) working: one graph for both sides.
    fixed = lambda x: torch.cond(x.shape[0] < 64, lambda t: t * 2, lambda t: t + 1, (x,))  # noqa: E731
    calls = [torch.randn(n, 3) for n in (8, 16, 128, 3)]
    assert compiles(fixed, calls, dynamic=True) == 1


# ---------------------------------------------------------------- divisibility


def even_or_odd(x: torch.Tensor) -> torch.Tensor:
    if x.shape[1] % 2 == 0:
        return x * 2
    return x + 1


def test_parity_branch_fix_is_python_and_keeps_odd_lengths() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(even_or_odd, backend="eager")
        for n in (8, 10, 11):
            compiled(torch.randn(2, n))
    recompile = s.recompiles[-1]
    assert recompile.guard is not None and recompile.guard.expr == "Eq(Mod(s27, 2), 0)"
    assert codes(recompile.fixes) == ["torch.cond(x.shape[1] % 2 == 0, true_fn, false_fn, (x,))"]
    assert_valid(s)


def test_view_divisibility_pads_instead_of_checking() -> None:
    def pairs(x: torch.Tensor) -> torch.Tensor:
        return x.view(-1, 2).sum(0)

    with symdebug.capture() as s:
        compiled = torch.compile(pairs, backend="eager", dynamic=True)
        compiled(torch.randn(8))
    guard = next(g for g in s.guards if g.expr == "Eq(Mod(s77, 2), 0)")
    (fix,) = guard.fixes
    assert fix.code.startswith("x = torch.nn.functional.pad(") and fix.kind == "code"
    assert_valid(s)
    # The padding as written works for an odd length too (it would raise with a check).
    x = torch.randn(7)
    expression = fix.code.split(" = ", 1)[1]
    padded = eval(compile(expression, "<fix>", "eval"), {"torch": torch, "x": x})
    assert padded.shape == (8,)


# ---------------------------------------------------------------- h[:, T - 1]


def last_step(h: torch.Tensor) -> torch.Tensor:
    T = h.shape[1]
    return h[:, T - 1]


def test_last_index_is_rewritten_not_pinned() -> None:
    calls = [torch.randn(2, n, 4) for n in (11, 12, 13, 14)]
    with torch_compiles() as counted, symdebug.capture() as s:
        compiled = torch.compile(last_step, backend="eager")
        for h in calls:
            compiled(h)
    pinned = [r for r in s.recompiles if r.cause == "op_requirement"]
    assert pinned and pinned[0].guard is not None and pinned[0].guard.expr.startswith("Eq(s")
    assert codes(pinned[0].fixes) == [
        "h[:, -1]",
        "h.select(1, T - 1)",
        "torch.narrow(h, 1, T - 1, 1)",
    ]
    assert_valid(s)
    # Each rewrite, as written, compiles once more at most (static first), never per length.
    for fixed in (lambda h: h[:, -1], lambda h: h.select(1, h.shape[1] - 1)):
        assert compiles(fixed, calls) == 2
    assert len(s.compiles) == counted.total == 4  # one per length: torch's own count


# ---------------------------------------------------------------- internal names


def doubled(t: torch.Tensor) -> torch.Tensor:
    torch._dynamo.graph_break()
    return t


def test_internal_source_names_never_reach_the_code() -> None:
    def f(x: torch.Tensor) -> torch.Tensor:
        return doubled(x * 2).sum(0) + 1

    with symdebug.capture() as s:
        compiled = torch.compile(f, backend="eager")
        for n in (4, 5, 6):
            compiled(torch.randn(n, 3))
    resumed = next(r for r in s.recompiles if "___stack0" in str(r.sources))
    (fix,) = resumed.fixes
    assert fix.settings == {STATIC_BY_DEFAULT: False} and "graph break" in fix.explanation
    assert_valid(s)


# ---------------------------------------------------------------- decode loops, batch of 1


class TinyDecoder(torch.nn.Module):
    """A Llama-like step: the new tokens attend over a KV cache that grows each call."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(50, 16)
        self.head = torch.nn.Linear(16, 50)

    def forward(self, ids: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.embed(ids)
        keys = torch.cat([cache, h], dim=1)
        mixed = (h @ keys.transpose(1, 2)).softmax(-1) @ keys
        return self.head(mixed[:, -1]), keys


def test_handwritten_decode_loop_does_not_start_with_unbacked() -> None:
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    with symdebug.capture() as s, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        logits, cache = compiled(torch.randint(0, 50, (1, 6)), torch.zeros(1, 0, 16))
        for _ in range(5):
            logits, cache = compiled(logits.argmax(-1, keepdim=True), cache)
    assert s.recompiles
    assert_valid(s)
    for recompile in s.recompiles:
        assert recompile.fixes, recompile.reasons
        assert "mark_unbacked" not in recompile.fixes[0].code
    small = [r for r in s.recompiles if r.fixes[0].settings == {SIZE_OBLIVIOUS: True}]
    assert small, [(r.cause, r.reasons) for r in s.recompiles]  # ids went from 6 to 1


def test_llama_decode_with_a_batch_of_one() -> None:
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(
        num_hidden_layers=1,
        hidden_size=32,
        intermediate_size=64,
        num_attention_heads=2,
        num_key_value_heads=2,
        vocab_size=100,
        max_position_embeddings=128,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(config).eval()
    with symdebug.capture() as s, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        cache = transformers.DynamicCache(config=config)
        out = compiled(input_ids=torch.randint(0, 100, (1, 6)), past_key_values=cache)
        for _ in range(4):
            step = out.logits[:, -1:].argmax(-1)
            out = compiled(input_ids=step, past_key_values=out.past_key_values)
    first = s.recompiles[0]  # the prompt's length 6, then 1 token a step
    assert first.sources == ["L['kwargs']['input_ids'].size()[1]"]
    assert first.fixes[0].settings == {SIZE_OBLIVIOUS: True}
    # in forward's parameter name, not the HF wrapper's kwargs['input_ids'] (issue 12)
    assert "torch._dynamo.decorators.mark_unbacked(input_ids, 1)" in codes(first.fixes)
    for recompile in s.recompiles:
        assert "mark_unbacked" not in recompile.fixes[0].code
    assert_valid(s)


def test_t5_growing_decoder() -> None:
    transformers = pytest.importorskip("transformers")
    config = transformers.T5Config(
        num_layers=1,
        num_decoder_layers=1,
        d_model=32,
        d_ff=64,
        num_heads=2,
        d_kv=16,
        vocab_size=100,
        decoder_start_token_id=0,
    )
    torch.manual_seed(0)
    model = transformers.T5ForConditionalGeneration(config).eval()
    with symdebug.capture() as s, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        ids = torch.randint(0, 100, (1, 7))
        decoded = torch.zeros(1, 1, dtype=torch.long)
        for _ in range(3):
            out = compiled(input_ids=ids, decoder_input_ids=decoded)
            decoded = torch.cat([decoded, out.logits[:, -1:].argmax(-1)], 1)
    (recompile,) = s.recompiles  # decoder length 1, then every length >= 2
    assert recompile.sources == ["L['kwargs']['decoder_input_ids'].size()[1]"]
    # mark_dynamic of a size of 1 does nothing, and mark_unbacked made it 2 compiles -> 24.
    assert recompile.fixes[0].settings == {SIZE_OBLIVIOUS: True}
    lone = [f for f in recompile.fixes if "mark_dynamic" in f.code and len(f.settings) == 1]
    assert not lone and "mark_unbacked" in recompile.fixes[-1].code
    assert_valid(s)

"""The demo's own fixes: its ``torch.cond`` works on ``h = self.proj(x)``, the value the
branch reads, never the argument ``x`` (issue 32, item 18)."""

from __future__ import annotations

import ast

import torch

from symdebug.examples.demo import TinyBlock, capture_calls


def test_the_demo_cond_fix_takes_the_branchs_operand() -> None:
    torch._dynamo.reset()
    compiled = torch.compile(TinyBlock(), backend="aot_eager")
    session = capture_calls(compiled)
    conds = {f.code for g in session.guards for f in g.fixes if f.code.startswith("torch.cond(")}
    assert conds == {"torch.cond(h.shape[1] > 8, true_fn, false_fn, (h,))"}
    for code in conds:
        call = ast.parse(code).body[0].value  # type: ignore[attr-defined]
        assert ast.unparse(call.args[3]) == "(h,)"

"""A saved session's fix text is replayed only as a conversion symdebug itself writes.

``n = torch.as_tensor(n)`` "in the caller" is replayed by evaluating its right side on each
call's argument: a session file from someone else must not put other code there.
"""

from __future__ import annotations

import pytest

from symdebug.live.candidates import conversion_change
from symdebug.live.fix_context import FixContext
from symdebug.model.types import Fix
from symdebug.model.values import Source

EXPLANATION = "in the caller, before the compiled call: n is a Python int"


def _change(code: str, source: str = "L['n']") -> object:
    fix = Fix(code, "code", EXPLANATION)
    return conversion_change(FixContext(fix, None, Source(source), None, "int_specialized"))


@pytest.mark.parametrize(
    "code",
    [
        "n = torch.as_tensor(n)",
        "n = torch.nn.utils.rnn.pad_sequence(n, batch_first=True)",
        "n = n.to(torch.float32)",
        "n = n.to('cpu')",
        "n = n.contiguous()",
        "n = n.detach()",
        "n = n.clone()",
        "n = torch.tensor(n)",
        "n = n.reshape(-1, *n.shape[-2:])",
        "n = n.reshape(-1)",
    ],
)
def test_the_conversions_symdebug_writes_are_replayed(code: str) -> None:
    assert _change(code) is not None


@pytest.mark.parametrize(
    "code",
    [
        "n = __import__('os').system('touch x')",
        "n = torch.as_tensor(n.__class__.__base__.__subclasses__())",
        "n = torch._C._x(n)",
        "n = torch.as_tensor(n, dtype=open('x'))",
        "n = torch.as_tensor(m)",
        "n = (lambda: torch)().as_tensor(n)",
        "n = torch.as_tensor(**n)",
        "n = n.__class__(n)",
        "n = n.to(torch._C)",
        "n = n.to(m)",
        "n = n.to(print)",
        "n = n.reshape([x for x in n.shape])",
        "n = n.to(lambda: 0)",
        "n = n.to(n.__dict__)",
        "n = n.to(f'{n}')",
    ],
)
def test_any_other_text_is_never_replayed(code: str) -> None:
    assert _change(code) is None

"""The user stack torch prints under a recompile's check (from 2.14), read from the reason.

Torch 2.14 and 2.15 word a check made inside ``nn.ModuleList.__getitem__`` with the library's
line, then ``User stack trace:`` down to it; the user's line is the deepest of their own
frames there.  The text is a real 2.14.1 reason (``tests/data/heldout_releases``).
"""

from __future__ import annotations

from symdebug.model.types import Compile, Facts, Frame, Specialization
from symdebug.processors.recompiles import link_recompiles, name_compiles
from symdebug.torchtext.reasons import parse_reason

CONTAINER = "/venv/lib/python3.11/site-packages/torch/nn/modules/container.py"
LIBRARY_LINE = "return self.__class__(list(self._modules.values())[idx])"
REASON = (
    f"0/0: exit_at == 1  # {LIBRARY_LINE}  # nn/modules/container.py:390 in __getitem__\n"
    "User stack trace:\n"
    '  File "model/layer_index_lookup.py", line 24, in forward\n'
    "    for block in self.blocks[: exit_at + 1]:\n"
    f'  File "{CONTAINER}", line 390, in __getitem__\n'
    f"    {LIBRARY_LINE}"
)


def test_the_printed_user_stack_is_read_outermost_first() -> None:
    reason = parse_reason(REASON)
    assert (reason.kind, reason.source, reason.user_line) == ("equals", "exit_at", 390)
    frames = [(f.name, f.lineno) for f in reason.user_stack]
    assert frames == [("forward", 24), ("__getitem__", 390)]
    assert reason.user_stack[0].line == "for block in self.blocks[: exit_at + 1]:"
    assert parse_reason("0/0: n == 3  # y = x * n  # m.py:5 in f").user_stack == []


def _facts(spec_frame: Frame) -> Facts:
    caller = Frame("model/layer_index_lookup.py", 39, "main", "outputs.append(...)")
    first = Compile("0/0", 0, 0, name="forward", caller=caller)
    facts = Facts(compiles=[first, Compile("0/1", 0, 1, name="forward", caller=caller)])
    facts.compiles[1].recompile_reasons = [REASON]
    spec = Specialization("L['exit_at']", 1, "0/0", "static_by_default", user_frame=spec_frame)
    facts.specializations = [spec]
    name_compiles(facts).apply()
    link_recompiles(facts).apply()
    return facts


def test_a_library_specialization_without_a_stack_takes_the_users_line_from_the_reason() -> None:
    (recompile,) = _facts(Frame(CONTAINER, 390, "__getitem__", LIBRARY_LINE)).recompiles
    assert recompile.user_frame is not None
    assert (recompile.user_frame.lineno, recompile.user_frame.name) == (24, "forward")


def test_a_specialization_in_the_users_own_code_keeps_its_line() -> None:
    own = Frame("model/layer_index_lookup.py", 27, "forward", "padding = ...")
    (recompile,) = _facts(own).recompiles
    assert recompile.user_frame == own

"""The user's names beside torch's, on hand-built facts (issue 31, point 14): each guard as
Python in the user's names, each symbol's and recompile input's name (a plain function's, a
wrapper's), nothing where only Dynamo names it, and the summary saying both."""

from __future__ import annotations

from symdebug.fixes.guard_text import guard_said
from symdebug.model.names import shown_name
from symdebug.model.types import Callee, Compile, Facts, Frame, Guard, Recompile, Symbol
from symdebug.pipeline import upgrade
from symdebug.processors.guard_names import name_guards
from symdebug.processors.user_names import name_symbols
from symdebug.renderers.console import render_summary

X = "L['x'].size()[0]"
WRAPPED = "L['args'][0].size()[0]"


def _facts(*, wrapped: bool) -> Facts:
    source = WRAPPED if wrapped else X
    callee = Callee("M.forward", "/w/m.py", 3, {"L['args'][0]": "x"}) if wrapped else None
    line = Frame("/w/m.py", 4, "forward", "if x.shape[0] > 4:")
    return Facts(
        compiles=[Compile("0/0", 0, 0, name="f", callee=callee), Compile("0/1", 0, 1, name="f")],
        guards=[
            Guard("0/0#0", "s77 > 4", "0/0", symbols=["s77"], sources=[source], user_stack=[line]),
            Guard("0/0#1", "u0 >= 0", "0/0", symbols=["u0"]),  # unbacked: no source
            Guard("0/0#2", "Eq(s1, 3)", "0/0", symbols=["s1"], sources=["L['___stack0']"]),
        ],
        symbols=[Symbol("s77", [source], "0/0"), Symbol("s3", ["L['n']", "G['w']"], "0/0")],
        recompiles=[Recompile("0/1", "0/0", ["0/0: n == 3"], sources=["L['self'].k", "G['w']"])],
    )


def _named(facts: Facts) -> Facts:
    name_symbols(facts).apply()
    name_guards(facts).apply()
    return facts


def test_shown_name_is_the_users_or_nothing() -> None:
    assert shown_name(X, {}) == "x.shape[0]"
    assert shown_name(WRAPPED, {"L['args'][0]": "x"}) == "x.shape[0]"
    assert shown_name("L['self']._modules['lin'].k", {}) == "self.lin.k"
    assert shown_name("G['w']", {}) == shown_name("L['___stack0']", {}) == ""


def test_guards_symbols_and_recompile_inputs_named() -> None:
    for wrapped in (False, True):
        facts = _named(_facts(wrapped=wrapped))
        assert [g.user_expr for g in facts.guards] == ["x.shape[0] > 4", "", ""]
        assert [s.user_names for s in facts.symbols] == [["x.shape[0]"], ["n", ""]]
        assert facts.recompiles[0].user_names == ["self.k", ""]


def test_guard_said_puts_torchs_text_beside() -> None:
    branch, unbacked, _ = _named(_facts(wrapped=False)).guards
    assert guard_said(branch) == "x.shape[0] > 4  (torch: s77 > 4)"
    assert guard_said(unbacked) == "u0 >= 0"


def test_summary_shows_both_names() -> None:
    text = render_summary(_named(_facts(wrapped=True)))
    assert "s77 = x.shape[0] (L['args'][0].size()[0])" in text
    assert "s3 = n (L['n']), G['w']" in text
    assert "      x.shape[0] > 4  (torch: s77 > 4)  @ m.py:4" in text
    assert "      u0 >= 0\n" in text


def test_facts_read_without_names_are_named() -> None:
    facts = upgrade(_facts(wrapped=False))
    assert facts.guards[0].user_expr == "x.shape[0] > 4"
    assert facts.symbols[0].user_names == ["x.shape[0]"]
    assert facts.recompiles[0].user_names == ["self.k", ""]

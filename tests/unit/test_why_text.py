"""``why``'s guards in the user's names (``x.shape[0] > 4`` for ``s77 > 4``), hand-built."""

from __future__ import annotations

from symdebug.model.types import Guard
from symdebug.queries.why import guard_text


def guard(expr: str, symbols: list[str], sources: list[str]) -> Guard:
    return Guard(id="0/0#0", expr=expr, compile_id="0/0", symbols=symbols, sources=sources)


def test_sympy_relations_and_functions_become_python_in_the_user_names() -> None:
    product = guard("Ne(s17*s77, 18)", ["s17", "s77"], ["L['y'].size()[0]", "L['x'].size()[0]"])
    assert guard_text(product, {}) == "y.shape[0] * x.shape[0] != 18"
    rounded = guard("Eq(Mod(s27, 8), 0)", ["s27"], ["L['ids'].size()[1]"])
    assert guard_text(rounded, {}) == "ids.shape[1] % 8 == 0"
    clamped = guard("Max(1, s53 - 2) > 1", ["s53"], ["L['x'].size()[2]"])
    assert guard_text(clamped, {}) == "max(1, x.shape[2] - 2) > 1"
    module = guard("Eq(s0, 2)", ["s0"], ["L['self'].chunk"])
    assert guard_text(module, {}) == "self.chunk == 2"


def test_a_wrapper_input_is_said_by_the_parameter_it_stands_for() -> None:
    wrapped = guard("s0 > 4", ["s0"], ["L['args'][1].size()[1]"])
    assert guard_text(wrapped, {"L['args'][1]": "input_ids"}) == "input_ids.shape[1] > 4"
    assert guard_text(wrapped, {}) == "args[1].shape[1] > 4"


def test_no_python_form_keeps_torch_text() -> None:
    unbacked = guard("Eq(u0, 1)", ["u0"], [])
    internal = guard("s0 > 4", ["s0"], ["___stack0.size()[0]"])
    unknown_function = guard("Eq(OpaqueUnaryFn_sqrt(s0), 2)", ["s0"], ["L['x'].size()[0]"])
    constant = guard("True", [], [])
    assert [guard_text(g, {}) for g in (unbacked, internal, unknown_function, constant)] == [
        "",
        "",
        "",
        "",
    ]

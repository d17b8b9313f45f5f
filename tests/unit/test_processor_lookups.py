"""The passes' lookups answer as the scans they replace, on every real log of tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from symdebug.model.index import FactIndex
from symdebug.model.types import Facts, Frame, Guard
from symdebug.pipeline import build
from symdebug.processors.causes import is_python_branch
from symdebug.processors.explanations import CompileLookup, explanation_guards
from symdebug.processors.fixes import reason_check
from symdebug.torchtext.reasons import parse_reason
from symdebug.tracefile import read_trace_file

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = sorted(p for p in DATA.rglob("*.log*") if p.stat().st_size)


@pytest.fixture(scope="module", params=LOGS, ids=lambda p: p.name)
def facts(request: pytest.FixtureRequest) -> Facts:
    return build(read_trace_file(request.param))


@pytest.mark.parametrize(
    "raw",
    [
        "0/1: tensor 'L['x']' size mismatch at index 0. expected 3, actual 5",
        "  !2/0/1: 2 <= L['x'].size()[0] <= 64  # x.view(-1) at model.py:3  \n",
        "L['n'] == 4  # n in forward",
        "1/0: len(L['xs']) == 2 # xs",
        "0/0: ",
        "",
    ],
)
def test_reason_check_is_the_parsed_code(raw: str) -> None:
    assert reason_check(raw) == parse_reason(raw).code


def test_reason_check_of_every_logged_reason(facts: Facts) -> None:
    for compile_ in facts.compiles:
        for raw in compile_.recompile_reasons:
            assert reason_check(raw) == parse_reason(raw).code


def _scanned(index: FactIndex, compile_id: str, name: str, source: str) -> list[Guard]:
    """What ``explanation_guards`` answered before the lookup: two scans of the compile."""
    spec = index.specialization(compile_id, source)
    if spec is not None and spec.guards:
        return spec.guards
    return [g for g in index.guards_of(compile_id) if name in g.symbols and g.status == "installed"]


def test_lookup_answers_as_the_scans(facts: Facts) -> None:
    index = FactIndex(facts)
    lookup = CompileLookup(index, (s.compile_id for s in facts.symbols))
    for symbol in facts.symbols:
        for source in symbol.sources:
            found = explanation_guards(lookup, symbol, source)
            assert found == _scanned(index, symbol.compile_id, symbol.name, source)
            spec = lookup.specialization(symbol.compile_id, source)
            assert spec is index.specialization(symbol.compile_id, source)


def test_lookup_lists_a_guard_once_and_copies() -> None:
    guard = Guard("0/0#0", "Eq(s0*s0, 4)", "0/0", symbols=["s0", "s0"])
    facts = Facts(guards=[guard])
    lookup = CompileLookup(FactIndex(facts), ["0/0"])
    first = lookup.installed_guards("0/0", "s0")
    assert first == [guard]
    first.clear()  # a caller's list is its own
    assert lookup.installed_guards("0/0", "s0") == [guard]
    with pytest.raises(KeyError):
        lookup.installed_guards("0/1", "s0")


def test_an_inductor_guard_is_never_a_branch() -> None:
    evaluate = Frame("/torch/fx/experimental/symbolic_shapes.py", 1, "evaluate_expr")
    guard = Guard("0/0#0", "s0 > 4", "0/0", phase="inductor", framework_stack=[evaluate])
    guard.instruction = "POP_JUMP_IF_FALSE"
    assert not is_python_branch(guard)
    guard.phase = "dynamo"
    assert is_python_branch(guard)

"""The guard grammar accepts every check torch writes, and nothing that runs code."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from symdebug.predict.check_eval import compile_check, compile_scalar_check
from symdebug.predict.guard_grammar import NotAGuardCheckError, guard_expression, refusal

LOGS = sorted((Path(__file__).parents[1] / "data/conformance").glob("torch-*/*.log.gz"))
_LAMBDA = re.compile(r"(?:LAMBDA_GUARD|OBJECT_ALIASING): (?P<code>.+?)(?:\s+#.*)?$", re.M)


def _checks_of_every_release() -> list[str]:
    found: set[str] = set()
    for log in LOGS:
        found.update(
            m["code"] for m in _LAMBDA.finditer(gzip.decompress(log.read_bytes()).decode())
        )
    return sorted(found)


def test_every_check_torch_wrote_in_the_conformance_logs_is_accepted() -> None:
    checks = _checks_of_every_release()
    assert len(LOGS) >= 3 * 40 and len(checks) > 50
    refused = {code: refusal(code) for code in checks if _refused(code)}
    assert not refused


def _refused(code: str) -> bool:
    try:
        guard_expression(code)
    except NotAGuardCheckError:
        return True
    except SyntaxError:
        return False  # cut by torch's note (a string holding ``#``): not ours to judge
    return False


@pytest.mark.parametrize(
    ("code", "values", "holds"),
    [
        ("2 <= L['x'].size()[0]", {"L['x'].size()[0]": 4}, True),
        ("(L['x'].size()[1] % 2) == 0", {"L['x'].size()[1]": 3}, False),
        ("math.ceil(L['x'].size()[0] / 3) > 2", {"L['x'].size()[0]": 7}, True),
        ("torch.sym_max(L['a'].size()[0], 3) == 3", {"L['a'].size()[0]": 2}, True),
        ("len(L['xs']) == 2", {"len:L['xs']": 2}, True),
        ("L['x'].size()[-1] != 1", {"L['x'].size()[-1]": 1}, False),
    ],
)
def test_checks_in_the_grammar_are_evaluated(
    code: str, values: dict[str, int], holds: bool
) -> None:
    assert bool(compile_check(code)[0](values)) is holds
    assert bool(compile_scalar_check(code)(values)) is holds


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("().__class__.__base__.__subclasses__()", "call of '().__class__"),
        ("[c for c in L['x'].size()]", "ListComp"),
        ("(lambda: 1)() == 1", "call of 'lambda: 1'"),
        ("(n := 3) == L['x'].size()[0]", "NamedExpr"),
        ("f'{L[0]}' == ''", "JoinedStr"),
        ("'{0.__class__}'.format(L['x']) == ''", "call of"),
        ("__builtins__['open']('x') == 1", "call of"),
        ("L['x'].__init__.__globals__['os'].system('x') == 0", "call of"),
        ("open('x') == 1", "call of 'open'"),
        ("math.__loader__ == 1", "Attribute"),
        ("L['x'].size(0) == 1", "call of"),
        ("max(*L['x']) == 1", "keywords or *"),
        ("L['x'] in (1, 2)", "comparison In"),
        ("{1: 2} == L['x']", "Dict"),
        ("L['x'] if L['y'] else 1", "IfExp"),
    ],
)
def test_anything_else_is_refused_naming_what_was_found(code: str, named: str) -> None:
    with pytest.raises(NotAGuardCheckError, match=re.escape(named)):
        guard_expression(code)
    with pytest.raises(SyntaxError):
        compile_check(code)
    with pytest.raises(SyntaxError):
        compile_scalar_check(code)
    assert refusal(code).startswith("not evaluated: not a guard check")

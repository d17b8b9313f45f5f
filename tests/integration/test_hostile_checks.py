"""A prediction over someone else's file never runs the check texts it holds (issue 46, 1).

A check's text comes from a saved session (``compiles[].shape_checks[].code``) or a log's
guard tree (``LAMBDA_GUARD:`` lines).  Each known escape is written into a real log of
torch 2.13 (``tests/data/conformance``) and into the session saved from it; a fresh Python
process opens the file as a user would and predicts a call.  The escape must not run (its
marker file never appears) and the prediction must be unsure, naming the check.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

LOG = Path(__file__).parents[1] / "data/conformance/torch-2.13.0+cpu/duck_pair.log.gz"
#: The guard the escapes replace: ``+- LAMBDA_GUARD: 2 <= L['a'].size()[0]  # ...``.
CHECK = "2 <= L['a'].size()[0]"
#: ``{marker}`` is the file an escape that ran would write.  The first one runs under a bare
#: ``eval(text, {"__builtins__": {}})``: that is what the grammar stops.
_OPEN = "('{marker}', 'w').write('ran')"
ESCAPES = {
    "subclass walk": (
        "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'catch_warnings']"
        "[0]()._module.__builtins__['open']" + _OPEN + " and " + CHECK
    ),
    "__globals__": "(lambda: 0).__globals__['__builtins__']['open']" + _OPEN + " or " + CHECK,
    "__builtins__": "__builtins__['open']" + _OPEN + " or " + CHECK,
    "format string": "'{{0.__class__.__init__.__globals__}}'.format(L['a']) and " + CHECK,
    "f-string": "f'{{().__class__}}' and " + CHECK,
    "lambda": "(lambda: open" + _OPEN + ")() or " + CHECK,
    "walrus": "(y := ().__class__) and " + CHECK,
    "comprehension": "[c for c in ().__class__.__mro__] and " + CHECK,
    "method call on a source": "L['a'].__class__.__subclasses__() and " + CHECK,
}
PREDICT = """
import json, sys
import symdebug
path = sys.argv[1]
run = symdebug.load(path) if path.endswith(".json") else symdebug.load_trace(path)
p = run.predict(a=(7,), b=(7,))
print(json.dumps({"certain": p.certain, "unchecked": list(p.unchecked)}))
"""
SAVE = "import sys, symdebug; symdebug.load_trace(sys.argv[1]).save(sys.argv[2])"


def _hostile_log(folder: Path, text: str) -> Path:
    lines = gzip.decompress(LOG.read_bytes()).decode().splitlines(keepends=True)
    replaced = [line.replace(f"LAMBDA_GUARD: {CHECK}", f"LAMBDA_GUARD: {text}") for line in lines]
    assert replaced != lines
    log = folder / "hostile.log"
    log.write_text("".join(replaced))
    return log


def _hostile_session(folder: Path, text: str) -> Path:
    saved = folder / "run.symdebug.json"
    _python(SAVE, str(LOG), str(saved))
    document = json.loads(saved.read_text())
    count = 0
    for compile_ in document["compiles"]:
        for check in compile_["shape_checks"]:
            if check["code"] == CHECK:
                check["code"], count = text, count + 1
    assert count
    saved.write_text(json.dumps(document))
    return saved


def _python(script: str, *args: str) -> str:
    """Run ``script`` in a fresh Python, as a user's own process would."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _predicted(path: Path) -> dict[str, object]:
    found: dict[str, object] = json.loads(_python(PREDICT, str(path)).splitlines()[-1])
    return found


@pytest.mark.parametrize("where", ["log", "session"])
@pytest.mark.parametrize("name", list(ESCAPES))
def test_an_escape_never_runs_and_the_prediction_is_unsure(
    tmp_path: Path, name: str, where: str
) -> None:
    marker = tmp_path / "escaped"
    text = ESCAPES[name].format(marker=marker)
    opened = _hostile_log(tmp_path, text) if where == "log" else _hostile_session(tmp_path, text)
    prediction = _predicted(opened)
    assert not marker.exists(), f"{name}: the check text ran"
    assert prediction["certain"] is False
    unchecked = prediction["unchecked"]
    assert isinstance(unchecked, list)
    assert any(text in item and "not evaluated" in item for item in unchecked), unchecked


def test_the_untouched_check_is_evaluated(tmp_path: Path) -> None:
    """The same call on the file as torch wrote it: a sure answer (the test can fail)."""
    prediction = _predicted(_hostile_log(tmp_path, CHECK + " "))
    assert prediction["certain"] is True, prediction

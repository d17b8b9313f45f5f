"""Each planted bug of scripts/plant_bugs.py still applies to the package as it is.

``make bench`` plants them and runs the tests of their claims; a change that no longer
finds its text (the code it names moved) would make that run fail late: here it fails in
every ``make test``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plant_bugs", ROOT / "scripts" / "plant_bugs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_planted_bug_applies_and_names_tests_that_exist() -> None:
    script = _script()
    assert script.main(["--dry"]) == 0
    for bug in script.BUGS:
        for test in bug.tests:
            assert (ROOT / test.split("::")[0]).is_file(), (bug.name, test)


def test_a_change_whose_text_moved_is_refused() -> None:
    script = _script()
    bug = script.Bug("moved", "a claim", "symdebug/__init__.py", "no such text", "x", ())
    with pytest.raises(SystemExit, match="found 0 times"):
        script.plant_text((ROOT / bug.path).read_text(), bug)

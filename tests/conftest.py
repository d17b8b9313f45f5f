"""Fixtures of every tier: strict mode, the real trace logs, and one run of ``scenarios.py``
in a process of its own.  This file imports no torch.

Tiers: ``unit/`` imports no torch at all, neither at collection nor in a test, so it runs in
seconds (``unit/test_torch_free.py`` and ``unit/conftest.py`` check it); ``integration/`` runs
torch.compile, or any symdebug code that imports torch; ``e2e/`` drives kernels, browsers,
JupyterLab and the wheel.  The tiers that run torch get a clean Dynamo for every test
(``fresh_dynamo``, in ``torch_fixtures.py``, which their conftests import).  Helper modules
(``scenarios.py``, ``predict_cases.py``) sit here; pyproject puts ``tests/`` on ``sys.path``
for every tier.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from scenarios import ScenarioRun

# Strict: the model builder re-raises instead of counting a ``bad_event``.  Set when pytest
# imports this file (before any test module imports symdebug), so that every process the tests
# start (scenario runs, the CLI, notebook kernels) inherits it.  Tests of the lenient mode opt
# out with ``monkeypatch.setenv("SYMDEBUG_STRICT", "0")``.
os.environ["SYMDEBUG_STRICT"] = "1"

TESTS = Path(__file__).resolve().parent
# Real TORCH_TRACE logs (a copy of the project's shared trace set, see its README).
TRACES = TESTS / "data" / "traces"


@pytest.fixture(scope="session")
def shared_traces() -> Path:
    """The real TORCH_TRACE logs in tests/data/traces (in the repository: never skipped)."""
    assert (TRACES / "simple.log").is_file(), f"trace fixtures missing from {TRACES}"
    return TRACES


@pytest.fixture(scope="session")
def scenario_run(tmp_path_factory: pytest.TempPathFactory) -> ScenarioRun:
    """Run the scenarios once, in a process of their own (TORCH_TRACE is read at import)."""
    from scenarios import ScenarioRun

    out = tmp_path_factory.mktemp("scenarios")
    run = ScenarioRun(out / "live.json", out / "trace")
    env = dict(os.environ, TORCH_TRACE=str(run.trace))
    script = TESTS / "scenarios.py"
    subprocess.run([sys.executable, str(script), str(run.live)], check=True, env=env, timeout=600)
    return run


def pytest_configure(config: pytest.Config) -> None:
    """Count the conformance tier's features (``tests/feature_tally.py``)."""
    from feature_tally import FeatureTally

    config.pluginmanager.register(FeatureTally(), "symdebug-feature-tally")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Feature tests carry their feature to the report."""
    from feature_tally import tag_features

    tag_features(items)

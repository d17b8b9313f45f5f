"""Fixtures of every tier: strict mode, a clean Dynamo for every test, the real trace logs,
and one run of ``scenarios.py`` in a process of its own.

Tiers: ``unit/`` never runs torch.compile, ``integration/`` does, ``e2e/`` drives kernels,
browsers, JupyterLab and the wheel (its own fixtures are in ``e2e/conftest.py``).  Helper
modules (``scenarios.py``, ``predict_cases.py``) sit here; pyproject puts ``tests/`` on
``sys.path`` for every tier.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import torch
import torch._inductor.config  # its settings are restored after every test

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


@pytest.fixture(autouse=True)
def fresh_dynamo() -> Iterator[None]:
    """Every test starts and ends with an empty Dynamo cache and the Dynamo and Inductor
    settings it started with: a workload that sets one (``automatic_dynamic_shapes = False``)
    must not change how the next test's programs compile."""
    configs = (torch._dynamo.config, torch._inductor.config)
    saved = [config.get_config_copy() for config in configs]
    torch._dynamo.reset()
    yield
    for config, settings in zip(configs, saved, strict=True):
        now = config.get_config_copy()
        changed = {k: v for k, v in settings.items() if now[k] != v}
        for key, value in changed.items():  # only those: setting a deprecated one warns
            setattr(config, key, value)
    torch._dynamo.reset()


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

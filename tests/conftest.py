"""Shared fixtures: a clean Dynamo for every test, and the shared trace logs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces"
# Debian's Chromium, started as the probe of this machine kind does: no background
# networking (the sandbox's closed network refuses it), no GPU, no first-run work.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium (found on PATH), driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is not on PATH: `make test` installs it (apt)"
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def fresh_dynamo() -> Iterator[None]:
    """Every test starts and ends with an empty Dynamo cache."""
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.fixture(scope="session")
def shared_traces() -> Path:
    """The real TORCH_TRACE logs in ../shared/data/traces."""
    if not TRACES.is_dir():
        pytest.skip(f"shared trace fixtures not found at {TRACES}")
    return TRACES


@dataclass(frozen=True)
class ScenarioRun:
    """One run of tests/scenarios.py: its live session saved to JSON, and its TORCH_TRACE."""

    live: Path
    trace: Path


@pytest.fixture(scope="session")
def scenario_run(tmp_path_factory: pytest.TempPathFactory) -> ScenarioRun:
    """Run the scenarios once, in a process of their own (TORCH_TRACE is read at import)."""
    out = tmp_path_factory.mktemp("scenarios")
    run = ScenarioRun(out / "live.json", out / "trace")
    env = dict(os.environ, TORCH_TRACE=str(run.trace))
    script = Path(__file__).resolve().parent / "scenarios.py"
    subprocess.run([sys.executable, str(script), str(run.live)], check=True, env=env, timeout=600)
    return run

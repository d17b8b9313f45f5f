"""Shared fixtures: a clean Dynamo for every test, and the shared trace logs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces"


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
